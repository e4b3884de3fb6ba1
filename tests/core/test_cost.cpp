// Attention cost (chapter section 4): the exercise, KV-cache sizes of public models, how each
// count scales, exact and correctly rounded counts against reference/cost.py's fixture(), and
// every precondition.
#include <catch2/catch.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "fixtures.hpp"
#include "literals.hpp"
#include "llmmath/cost.hpp"
#include "llmmath/model.hpp"

using llmmath::attention_cost;
using llmmath::AttentionCostConfig;

namespace {

AttentionCostConfig config(double tokens, double heads, double head_dim) {
  AttentionCostConfig c;
  c.tokens = tokens;
  c.heads = heads;
  c.head_dim = head_dim;
  return c;
}

}  // namespace

TEST_CASE("exercise 4: 16 tokens, 8 heads of dimension 32", "[cost][exercise]") {
  const auto r = attention_cost(config(16, 8, 32));
  // counts are exact integers here: compared with ==
  CHECK(r.scores_per_head == 256);       // 16²
  CHECK(r.scores_per_layer == 2048);     // 8 heads · 256
  CHECK(r.kv_values_per_layer == 8192);  // 2·16·8·32
  CHECK(r.kv_values == 8192);            // one layer
  CHECK(r.kv_bytes == 16384);            // fp16 by default
  CHECK(r.qk_macs_per_layer == 65536);   // 8·16²·32
  CHECK(r.av_macs_per_layer == 65536);
  CHECK(r.macs == 131072);

  SECTION("doubling d leaves the scores, and doubles KV storage and QK-plus-AV arithmetic") {
    const auto d2 = attention_cost(config(16, 8, 64));
    CHECK(d2.scores_per_head == r.scores_per_head);
    CHECK(d2.scores_per_layer == r.scores_per_layer);
    CHECK(d2.kv_values_per_layer == 2 * r.kv_values_per_layer);
    CHECK(d2.qk_macs_per_layer + d2.av_macs_per_layer ==
          2 * (r.qk_macs_per_layer + r.av_macs_per_layer));
  }
}

TEST_CASE("KV cache per token of public models (fp16, from their model cards)",
          "[cost][reference]") {
  SECTION("Llama-2-7B: 32 layers, 32 heads of 128, no grouping: 512 KiB per token") {
    AttentionCostConfig c = config(4096, 32, 128);
    c.layers = 32;
    const auto r = attention_cost(c);
    CHECK(r.kv_bytes_per_token == 524288);  // 2·32·128·32·2
    CHECK(r.kv_bytes == 524288.0 * 4096);   // 2 GiB for a full 4k context
    CHECK(r.kv_bytes == r.kv_bytes_per_token * 4096);
  }
  SECTION("Llama-3-8B: 8 KV heads shared by 32 query heads: a quarter, 128 KiB per token") {
    AttentionCostConfig c = config(8192, 32, 128);
    c.layers = 32;
    c.kv_heads = 8;
    const auto r = attention_cost(c);
    CHECK(r.kv_bytes_per_token == 131072);  // 2·8·128·32·2
    CHECK(r.kv_bytes == 131072.0 * 8192);   // 1 GiB for a full 8k context
    // grouping shrinks the cache, not the scores or the arithmetic
    c.kv_heads.reset();
    const auto full = attention_cost(c);
    CHECK(full.kv_bytes == 4 * r.kv_bytes);
    CHECK(full.scores_per_layer == r.scores_per_layer);
    CHECK(full.macs == r.macs);
  }
}

TEST_CASE("scores grow with the square of the context, the cache linearly", "[cost][invariant]") {
  AttentionCostConfig c = config(1000, 12, 64);
  c.layers = 12;
  c.batch = 3;
  c.kv_heads = 4;
  c.kv_bytes_per_element = 0.5;
  const auto r = attention_cost(c);
  c.tokens = 2000;
  const auto r2 = attention_cost(c);
  CHECK(r2.scores_per_head == 4 * r.scores_per_head);
  CHECK(r2.qk_macs_per_layer == 4 * r.qk_macs_per_layer);
  CHECK(r2.kv_values == 2 * r.kv_values);
  CHECK(r2.kv_bytes_per_token == r.kv_bytes_per_token);  // per token: independent of n
  // the relations between the fields, all exact at this size
  CHECK(r.scores_per_layer == 3 * 12 * r.scores_per_head);
  CHECK(r.kv_values == 12 * r.kv_values_per_layer);
  CHECK(r.kv_bytes == 0.5 * r.kv_values);
  CHECK(r.kv_bytes == 3 * 1000 * r.kv_bytes_per_token);
  CHECK(r.qk_macs_per_layer == 64 * r.scores_per_layer);
  CHECK(r.macs == 12 * (r.qk_macs_per_layer + r.av_macs_per_layer));
}

TEST_CASE("counts match exact integer arithmetic, correctly rounded above 2^53",
          "[cost][reference]") {
  for (const auto& c : fixtures::load("cost.txt")) {
    INFO("case " << c.name);
    AttentionCostConfig cfg = config(c.scalar("tokens"), c.scalar("heads"), c.scalar("headDim"));
    cfg.layers = c.scalar("layers");
    cfg.kv_heads = c.scalar("kvHeads");
    cfg.batch = c.scalar("batch");
    cfg.kv_bytes_per_element = c.scalar("kvBytesPerElement");
    const bool linear = c.values.count("hidden") == 1;
    if (linear) {
      cfg.hidden = c.scalar("hidden");
      cfg.intermediate = c.scalar("intermediate");
      cfg.gated_mlp = c.scalar("gatedMlp") == 1;
    }
    const auto r = attention_cost(cfg);
    // tolerance 0: the reference is the exact value rounded once, and so is the core's
    CHECK(r.scores_per_head == c.scalar("scoresPerHead"));
    CHECK(r.scores_per_layer == c.scalar("scoresPerLayer"));
    CHECK(r.kv_values_per_layer == c.scalar("kvValuesPerLayer"));
    CHECK(r.kv_values == c.scalar("kvValues"));
    CHECK(r.kv_bytes == c.scalar("kvBytes"));
    CHECK(r.kv_bytes_per_token == c.scalar("kvBytesPerToken"));
    CHECK(r.qk_macs_per_layer == c.scalar("qkMacsPerLayer"));
    CHECK(r.av_macs_per_layer == c.scalar("avMacsPerLayer"));
    CHECK(r.macs == c.scalar("macs"));
    REQUIRE(r.linear_macs_per_layer.has_value() == linear);
    if (!linear) continue;
    CHECK(*r.projection_macs_per_layer == c.scalar("projectionMacsPerLayer"));
    CHECK(*r.ffn_macs_per_layer == c.scalar("ffnMacsPerLayer"));
    CHECK(*r.linear_macs_per_layer == c.scalar("linearMacsPerLayer"));
    CHECK(*r.crossover_tokens == c.scalar("crossoverTokens"));  // one division of exact doubles
    // two roundings to double, then a division: within 2 units in the last place
    CHECK(*r.attention_share == Approx(c.scalar("attentionShare")).epsilon(4.5e-16));
  }
}

TEST_CASE("counts above 2^53 are rounded once, to nearest with ties to even", "[cost][invariant]") {
  // kvValuesPerLayer = 2·batch·n·kvHeads·d with batch = kvHeads = d = 4095 and n odd is twice
  // an odd number between 2^53 and 2^54: exactly halfway between two doubles, 4 apart.
  AttentionCostConfig c = config(131169, 4095, 4095);
  c.batch = 4095;
  // 2·4095³·131169 = 18014529407442750: the neighbour with an even significand is above
  CHECK(attention_cost(c).kv_values_per_layer == 18014529407442752.0);
  // 2·4095³·131171 = 18014804084072250: here the even neighbour is below
  c.tokens = 131171;
  CHECK(attention_cost(c).kv_values_per_layer == 18014804084072248.0);
}

TEST_CASE("attentionCost refuses bad input with a message naming the parameter", "[cost][errors]") {
  const auto with = [](auto change) {
    AttentionCostConfig c = config(16, 8, 32);
    change(c);
    return c;
  };
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.tokens = 0; })),
                    "tokens must be an integer in [1, 1073741824], got 0");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.tokens = 1073741825; })),
                    "tokens must be an integer in [1, 1073741824], got 1073741825");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.heads = 2.5; })),
                    "heads must be an integer, got 2.5");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.head_dim = NAN; })),
                    "head_dim must be a finite number, got NaN");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.layers = 4097; })),
                    "layers must be an integer in [1, 4096], got 4097");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_heads = 16; })),
                    "kv_heads must be an integer in [1, 8], got 16");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_heads = 3; })),
                    "kv_heads must be a divisor of heads (8), so that query heads share key-value "
                    "heads in equal groups, got 3");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.batch = -1; })),
                    "batch must be an integer in [1, 1048576], got -1");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_bytes_per_element = 0; })),
                    "kv_bytes_per_element must be a number in (0, 64], got 0");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_bytes_per_element = 2048; })),
                    "kv_bytes_per_element must be a number in (0, 64], got 2048");
  // one range for a stored element in both concepts: the cost figure and the model figure take
  // the same kv_bytes_per_element
  static_assert(llmmath::max_cost_kv_bytes_per_element == llmmath::max_model_element_bytes);
  CHECK_NOTHROW(attention_cost(with([](auto& c) { c.kv_bytes_per_element = 64; })));
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_bytes_per_element = 64.5; })),
                    "kv_bytes_per_element must be a number in (0, 64], got 64.5");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_bytes_per_element = INFINITY; })),
                    "kv_bytes_per_element must be a finite number, got Infinity");
  CHECK_THROWS_WITH(attention_cost(AttentionCostConfig{}), Catch::StartsWith("tokens must be"));
}

TEST_CASE("2^30 tokens are accepted with exact counts, 2^30 + 1 refused", "[cost][limits]") {
  AttentionCostConfig c = config(1073741824, 32, 128);  // 2^30 tokens, Llama-3-8B's shape
  c.layers = 32;
  c.kv_heads = 8;
  const auto r = attention_cost(c);
  // all powers of two: exact, compared with ==
  CHECK(r.scores_per_head == std::ldexp(1.0, 60));      // (2^30)²
  CHECK(r.scores_per_layer == std::ldexp(1.0, 65));     // 32·2^60
  CHECK(r.kv_values_per_layer == std::ldexp(1.0, 41));  // 2·2^30·8·128
  CHECK(r.kv_bytes == std::ldexp(1.0, 47));             // 128 TiB of cache
  CHECK(r.qk_macs_per_layer == std::ldexp(1.0, 72));    // 32·2^60·128
  CHECK(r.macs == std::ldexp(1.0, 78));                 // 2·2^72·32
  // and an odd count that needs every bit: (2^30 − 1)² = 2^60 − 2^31 + 1 rounds to 2^60 − 2^31
  c.tokens = 1073741823;
  CHECK(attention_cost(c).scores_per_head == std::ldexp(1.0, 60) - std::ldexp(1.0, 31));
  c.tokens = 1073741825;
  CHECK_THROWS_WITH(attention_cost(c),
                    "tokens must be an integer in [1, 1073741824], got 1073741825");
  c.tokens = 16777217;  // 2^24 + 1, the old limit, is now accepted
  CHECK(attention_cost(c).scores_per_head == 281475010265089.0);  // (2^24 + 1)², exact
}

TEST_CASE("the batch, the width and the feed-forward size go as far as modelCost's limits, exactly",
          "[cost][limits]") {
  // 2^20 sequences of 2^30 tokens at 4096 heads of 4096, 4096 layers: 2·2^20·2^12·2^60·2^12·2^12
  // = 2^117 multiply-adds, the largest count, exact (a power of two)
  AttentionCostConfig c = config(1073741824, 4096, 4096);
  c.layers = 4096;
  c.batch = 1048576;
  c.hidden = 1048576;
  c.intermediate = 4194304;
  c.gated_mlp = true;
  const auto r = attention_cost(c);
  CHECK(r.macs == std::ldexp(1.0, 117));
  CHECK(r.scores_per_layer == std::ldexp(1.0, 92));  // 2^20·2^12·2^60
  CHECK(r.kv_values == std::ldexp(1.0, 87));         // 2·2^20·2^30·2^12·2^12·2^12
  CHECK(r.kv_bytes == std::ldexp(1.0, 88));          // 2 bytes each
  // 2^50 tokens in the batch times (2^20·2^12·(2·2^12 + 2·2^12) + 3·2^20·2^22) per token
  CHECK(*r.linear_macs_per_layer ==
        std::ldexp(1.0, 50) * (std::ldexp(1.0, 46) + 3 * std::ldexp(1.0, 42)));
  // one past each limit is refused, naming it and the limit
  c.batch = 1048577;
  CHECK_THROWS_WITH(attention_cost(c), "batch must be an integer in [1, 1048576], got 1048577");
  c.batch = 1;
  c.hidden = 1048577;
  CHECK_THROWS_WITH(attention_cost(c), "hidden must be an integer in [1, 1048576], got 1048577");
  c.hidden = 1;
  c.intermediate = 4194305;
  CHECK_THROWS_WITH(attention_cost(c),
                    "intermediate must be an integer in [1, 4194304], got 4194305");
  c.intermediate.reset();
  CHECK_THROWS_WITH(attention_cost(c),
                    "intermediate must be a whole number in [1, 4194304] when hidden or gated_mlp "
                    "is given, got undefined");
}

TEST_CASE("a cache size above 2^128 with a hidden tie rounds up, as exact arithmetic does",
          "[cost][limits]") {
  // kvBytes = N·b, N = 2·984481·852317040·3799·3354·3516 and b = 24.378091054322795 (odd
  // significand M): N·M > 2^128, its bits above the lowest 64 are exactly halfway between two
  // doubles with an even lower neighbour, and its lowest 64 bits are not zero, so the correct
  // result is the upper neighbour, not 1.8328183267348035e+27 (reference/cost.py's fixture(),
  // sticky_tie_above_2_128, found by a random search within the limits)
  AttentionCostConfig c = config(852317040, 3799, 3354);
  c.layers = 3516;
  c.batch = 984481;
  c.kv_bytes_per_element = 24.378091054322795;
  CHECK(attention_cost(c).kv_bytes == 1.8328183267348038e+27);
}

TEST_CASE("Llama-2-7B: the linear layers outweigh attention's square up to 24,704 tokens",
          "[cost][linear][reference]") {
  // config.json of meta-llama/Llama-2-7b-hf: hidden_size 4096, 32 heads of 128, no grouping,
  // intermediate_size 11008, SwiGLU (gated)
  AttentionCostConfig c = config(4096, 32, 128);
  c.layers = 32;
  c.hidden = 4096;
  c.intermediate = 11008;
  c.gated_mlp = true;
  const auto r = attention_cost(c);
  // per token: Q, K, V, O 4·4096·4096 = 67,108,864; feed-forward 3·4096·11008 = 135,266,304
  CHECK(*r.projection_macs_per_layer == 4096.0 * 67108864);
  CHECK(*r.ffn_macs_per_layer == 4096.0 * 135266304);
  CHECK(*r.linear_macs_per_layer == 4096.0 * 202375168);
  // 2·32·128·n² = 202,375,168·n at n = 202,375,168 / 8192 = 24,704 exactly
  CHECK(*r.crossover_tokens == 24704);
  // at 4096 tokens attention's square is 2·32·128·4096 / (that + 202,375,168) = 4/28.125
  CHECK(*r.attention_share == Approx(33554432.0 / (33554432.0 + 202375168.0)).epsilon(1e-15));
  CHECK(*r.attention_share < 0.15);
  // exactly half at the crossover, more beyond it
  c.tokens = 24704;
  const auto at = attention_cost(c);
  CHECK(*at.attention_share == 0.5);
  CHECK(at.qk_macs_per_layer + at.av_macs_per_layer == *at.linear_macs_per_layer);
  c.tokens = 100000;
  CHECK(*attention_cost(c).attention_share > 0.5);
}

TEST_CASE("GPT-2 small (two-matrix feed-forward) and Llama-3-8B (grouped K and V)",
          "[cost][linear]") {
  // GPT-2 small: d_model 768, 12 heads of 64, d_ff 3072, not gated:
  // C = 768·64·48 + 2·768·3072 = 2,359,296 + 4,718,592, over 2·12·64 = 1536: 4608 tokens
  AttentionCostConfig gpt2 = config(1024, 12, 64);
  gpt2.hidden = 768;
  gpt2.intermediate = 3072;
  const auto g = attention_cost(gpt2);
  CHECK(*g.crossover_tokens == 4608);
  CHECK(*g.ffn_macs_per_layer == 1024.0 * 4718592);
  gpt2.gated_mlp = false;  // the default, stated
  CHECK(*attention_cost(gpt2).crossover_tokens == 4608);
  gpt2.gated_mlp = true;  // a third matrix: C = 2,359,296 + 7,077,888 over 1536
  CHECK(*attention_cost(gpt2).crossover_tokens == 6144);
  // Llama-3-8B: 8 KV heads shrink K and V: 4096·128·(64 + 16) + 3·4096·14336 over 8192
  AttentionCostConfig llama3 = config(8192, 32, 128);
  llama3.kv_heads = 8;
  llama3.hidden = 4096;
  llama3.intermediate = 14336;
  llama3.gated_mlp = true;
  CHECK(*attention_cost(llama3).crossover_tokens == 26624);
}

TEST_CASE("the linear layers grow linearly with tokens and batch, the crossover stays",
          "[cost][linear][invariant]") {
  AttentionCostConfig c = config(1000, 16, 64);
  c.kv_heads = 4;
  c.hidden = 1024;
  c.intermediate = 2816;
  c.gated_mlp = true;
  const auto r = attention_cost(c);
  c.tokens = 3000;
  c.batch = 5;
  const auto r2 = attention_cost(c);
  CHECK(*r2.linear_macs_per_layer == 15 * *r.linear_macs_per_layer);
  CHECK(*r2.projection_macs_per_layer + *r2.ffn_macs_per_layer == *r2.linear_macs_per_layer);
  CHECK(*r2.crossover_tokens == *r.crossover_tokens);
  // at the crossover n*, 2·h·d·n*² = n*·C, whatever the batch
  c.tokens = std::round(*r.crossover_tokens);
  const auto at = attention_cost(c);
  CHECK(at.qk_macs_per_layer + at.av_macs_per_layer ==
        Approx(*at.linear_macs_per_layer).epsilon(1.0 / c.tokens));
  // without hidden and intermediate, no linear fields
  CHECK_FALSE(attention_cost(config(16, 8, 32)).linear_macs_per_layer.has_value());
  CHECK_FALSE(attention_cost(config(16, 8, 32)).crossover_tokens.has_value());
}

TEST_CASE("the linear-layer options are refused by name unless complete and in range",
          "[cost][linear][errors]") {
  AttentionCostConfig c = config(16, 8, 32);
  c.hidden = 256;
  CHECK_THROWS_WITH(
      attention_cost(c),
      "intermediate must be a whole number in [1, 4194304] when hidden or gated_mlp is given, "
      "got undefined");
  c.hidden.reset();
  c.intermediate = 1024;
  CHECK_THROWS_WITH(
      attention_cost(c),
      "hidden must be a whole number in [1, 1048576] when intermediate or gated_mlp is given, "
      "got undefined");
  c.intermediate.reset();
  c.gated_mlp = false;
  CHECK_THROWS_WITH(attention_cost(c), Catch::StartsWith("hidden must be"));
  c.hidden = 1048577;
  c.intermediate = 1024;
  CHECK_THROWS_WITH(attention_cost(c), "hidden must be an integer in [1, 1048576], got 1048577");
  c.hidden = 256;
  c.intermediate = 4194305;
  CHECK_THROWS_WITH(attention_cost(c),
                    "intermediate must be an integer in [1, 4194304], got 4194305");
  c.intermediate = 0.5;
  CHECK_THROWS_WITH(attention_cost(c), "intermediate must be an integer, got 0.5");
}

// ---- macsPerLayer, and attentionCost swept over the context length (figure 4.1) -------------

namespace {

// The configurations the sweep tests run over: the exercise; Llama-3-8B's grouping with
// layers, a batch and 4-bit values; Llama-2-7B with its linear layers (gated); GPT-2 small's
// two-matrix feed-forward; and odd factors near every limit, whose counts pass 2^53.
std::vector<std::pair<const char*, AttentionCostConfig>> sweep_configs() {
  std::vector<std::pair<const char*, AttentionCostConfig>> out;
  out.emplace_back("exercise", config(16, 8, 32));
  AttentionCostConfig llama3 = config(0, 32, 128);
  llama3.layers = 32;
  llama3.kv_heads = 8;
  llama3.batch = 3;
  llama3.kv_bytes_per_element = 0.5;
  out.emplace_back("llama3", llama3);
  AttentionCostConfig llama2 = config(0, 32, 128);
  llama2.layers = 32;
  llama2.hidden = 4096;
  llama2.intermediate = 11008;
  llama2.gated_mlp = true;
  out.emplace_back("llama2 linear", llama2);
  AttentionCostConfig gpt2 = config(0, 12, 64);
  gpt2.hidden = 768;
  gpt2.intermediate = 3072;
  out.emplace_back("gpt2 linear", gpt2);
  AttentionCostConfig odd = config(0, 4095, 4093);
  odd.layers = 4091;
  odd.kv_heads = 35;
  odd.batch = 4087;
  odd.kv_bytes_per_element = 36.38761035360171;
  out.emplace_back("odd, near the limits", odd);
  return out;
}

}  // namespace

TEST_CASE("macsPerLayer is QKᵀ plus weights·V, and macs is macsPerLayer times the layers",
          "[cost][invariant]") {
  for (auto [name, c] : sweep_configs()) {
    for (double n : {1.0, 16.0, 4096.0, 131169.0, 1073741823.0, 1073741824.0}) {
      INFO(name << ", tokens " << n);
      c.tokens = n;
      const auto r = attention_cost(c);
      // exact: qk = av, so their sum is a doubling, and the core rounds 2·qk once (doubling
      // commutes with rounding)
      CHECK(r.macs_per_layer == r.qk_macs_per_layer + r.av_macs_per_layer);
      // macs is the exact product rounded once, macsPerLayer·L is rounded twice (the count,
      // then the product): equal below 2^53, else within three half-units in the last place
      // of each other (3.4e-16 relative)
      if (r.macs < 0x1p53)
        CHECK(r.macs == r.macs_per_layer * c.layers);
      else
        CHECK(r.macs == Approx(r.macs_per_layer * c.layers).epsilon(3.4e-16));
    }
  }
  // the exercise by hand: 2 · 8·16²·32 = 131,072 multiply-adds in its one layer
  CHECK(attention_cost(config(16, 8, 32)).macs_per_layer == 131072);
}

TEST_CASE("attentionCostSweep gives attention_cost's counts at every context length, bit for bit",
          "[cost][sweep]") {
  // one token, small and page-sized contexts, a tie above 2^53 (131169), the largest two,
  // a repeat, out of order
  const Eigen::VectorXd n =
      literals::vec({1, 2, 16, 1000, 4096, 131169, 1073741823.0, 1073741824.0, 16, 7});
  for (auto [name, c] : sweep_configs()) {
    INFO(name);
    const auto r = llmmath::attention_cost_sweep(c, n);
    CHECK(r.tokens == n);  // the lengths, as given
    REQUIRE(r.scores_per_layer.size() == n.size());
    REQUIRE(r.kv_values_per_layer.size() == n.size());
    REQUIRE(r.kv_bytes.size() == n.size());
    REQUIRE(r.macs_per_layer.size() == n.size());
    REQUIRE(r.linear_macs_per_layer.has_value() == c.hidden.has_value());
    if (r.linear_macs_per_layer) REQUIRE(r.linear_macs_per_layer->size() == n.size());
    for (Eigen::Index i = 0; i < n.size(); ++i) {
      INFO("tokens " << n(i));
      c.tokens = n(i);
      const auto p = attention_cost(c);
      // tolerance 0: the sweep calls attention_cost() at each length
      CHECK(r.scores_per_layer(i) == p.scores_per_layer);
      CHECK(r.kv_values_per_layer(i) == p.kv_values_per_layer);
      CHECK(r.kv_bytes(i) == p.kv_bytes);
      CHECK(r.macs_per_layer(i) == p.macs_per_layer);
      if (r.linear_macs_per_layer) CHECK((*r.linear_macs_per_layer)(i) == *p.linear_macs_per_layer);
    }
  }
}

TEST_CASE(
    "attentionCostSweep: scores and multiply-adds grow as n², the cache and linear layers as n",
    "[cost][sweep][invariant]") {
  // doubling n multiplies the exact counts by 4 (n²) or 2 (n), and rounding to nearest commutes
  // with multiplying by a power of two: the ratios are exact, also for counts above 2^53
  for (const auto& [name, c] : sweep_configs()) {
    INFO(name);
    const auto r = llmmath::attention_cost_sweep(
        c, literals::vec({1000, 2000, 4000, 131169, 262338, 0x1p28, 0x1p29, 0x1p30}));
    for (Eigen::Index i = 1; i < r.tokens.size(); ++i) {
      if (r.tokens(i) != 2 * r.tokens(i - 1)) continue;
      INFO("tokens " << r.tokens(i - 1) << " → " << r.tokens(i));
      CHECK(r.scores_per_layer(i) == 4 * r.scores_per_layer(i - 1));
      CHECK(r.macs_per_layer(i) == 4 * r.macs_per_layer(i - 1));
      CHECK(r.kv_values_per_layer(i) == 2 * r.kv_values_per_layer(i - 1));
      CHECK(r.kv_bytes(i) == 2 * r.kv_bytes(i - 1));
      if (r.linear_macs_per_layer)
        CHECK((*r.linear_macs_per_layer)(i) == 2 * (*r.linear_macs_per_layer)(i - 1));
    }
  }
}

TEST_CASE("attentionCostSweep by hand: the exercise's model at 16, 32 and 64 tokens",
          "[cost][sweep][exercise]") {
  const auto r = llmmath::attention_cost_sweep(config(16, 8, 32), literals::vec({16, 32, 64}));
  CHECK(r.scores_per_layer == literals::vec({2048, 8192, 32768}));      // 8·n²
  CHECK(r.kv_values_per_layer == literals::vec({8192, 16384, 32768}));  // 2·n·8·32
  CHECK(r.kv_bytes == literals::vec({16384, 32768, 65536}));            // fp16
  CHECK(r.macs_per_layer == literals::vec({131072, 524288, 2097152}));  // 2·8·n²·32
  CHECK_FALSE(r.linear_macs_per_layer.has_value());
}

TEST_CASE("attentionCostSweep refuses bad input, naming the array, its entry or a field of cfg",
          "[cost][sweep][errors]") {
  using literals::vec;
  using llmmath::attention_cost_sweep;
  const AttentionCostConfig ok = config(16, 8, 32);
  CHECK_THROWS_WITH(attention_cost_sweep(ok, Eigen::VectorXd(0)),
                    "tokens must be a non-empty array, got an empty one");
  CHECK_THROWS_WITH(attention_cost_sweep(ok, Eigen::VectorXd::Ones(4097)),
                    "tokens must be at most 4096 entries (points of a sweep), got 4097 entries");
  CHECK_NOTHROW(attention_cost_sweep(ok, Eigen::VectorXd::Ones(4096)));  // the limit itself
  CHECK_THROWS_WITH(attention_cost_sweep(ok, vec({16, 2.5})),
                    "tokens[1] must be an integer, got 2.5");
  CHECK_THROWS_WITH(attention_cost_sweep(ok, vec({0})),
                    "tokens[0] must be an integer in [1, 1073741824], got 0");
  CHECK_THROWS_WITH(attention_cost_sweep(ok, vec({1, 2, 1073741825})),
                    "tokens[2] must be an integer in [1, 1073741824], got 1073741825");
  CHECK_THROWS_WITH(attention_cost_sweep(ok, vec({NAN})),
                    "tokens[0] must be a finite number, got NaN");
  CHECK_THROWS_WITH(attention_cost_sweep(ok, vec({1, -INFINITY})),
                    "tokens[1] must be a finite number, got -Infinity");
  // cfg.tokens is not read: 0 there (the default, invalid on its own) is no error
  CHECK(attention_cost_sweep(config(0, 8, 32), vec({16})).macs_per_layer(0) == 131072);
  // the other fields, named as attention_cost() names them
  const auto with = [&](auto change) {
    AttentionCostConfig c = ok;
    change(c);
    return c;
  };
  const Eigen::VectorXd n = vec({16, 32});
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.heads = 2.5; }), n),
                    "heads must be an integer, got 2.5");
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.head_dim = NAN; }), n),
                    "head_dim must be a finite number, got NaN");
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.layers = 4097; }), n),
                    "layers must be an integer in [1, 4096], got 4097");
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.kv_heads = 3; }), n),
                    "kv_heads must be a divisor of heads (8), so that query heads share key-value "
                    "heads in equal groups, got 3");
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.batch = 0; }), n),
                    "batch must be an integer in [1, 1048576], got 0");
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.kv_bytes_per_element = 0; }), n),
                    "kv_bytes_per_element must be a number in (0, 64], got 0");
  CHECK_THROWS_WITH(
      attention_cost_sweep(with([](auto& c) { c.hidden = 256; }), n),
      "intermediate must be a whole number in [1, 4194304] when hidden or gated_mlp is given, "
      "got undefined");
  CHECK_THROWS_WITH(attention_cost_sweep(with([](auto& c) { c.gated_mlp = true; }), n),
                    Catch::StartsWith("hidden must be"));
}
