// Attention cost (chapter section 4): the exercise, KV-cache sizes of public models, how each
// count scales, exact and correctly rounded counts against tests/fixtures/make_cost.py, and
// every precondition.
#include <catch2/catch.hpp>
#include <cmath>

#include "fixtures.hpp"
#include "llmmath/cost.hpp"

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
    CHECK(r.kv_bytes_per_token == 524288);        // 2·32·128·32·2
    CHECK(r.kv_bytes == 524288.0 * 4096);         // 2 GiB for a full 4k context
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

TEST_CASE("scores grow with the square of the context, the cache linearly",
          "[cost][invariant]") {
  AttentionCostConfig c = config(1000, 12, 64);
  c.layers = 12;
  c.batch = 3;
  c.kv_heads = 4;
  c.bytes_per_value = 0.5;
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
    cfg.bytes_per_value = c.scalar("bytesPerValue");
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
  }
}

TEST_CASE("counts above 2^53 are rounded once, to nearest with ties to even",
          "[cost][invariant]") {
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

TEST_CASE("attentionCost refuses bad input with a message naming the parameter",
          "[cost][errors]") {
  const auto with = [](auto change) {
    AttentionCostConfig c = config(16, 8, 32);
    change(c);
    return c;
  };
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.tokens = 0; })),
                    "tokens must be an integer in [1, 16777216], got 0");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.tokens = 16777217; })),
                    "tokens must be an integer in [1, 16777216], got 16777217");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.heads = 2.5; })),
                    "heads must be an integer, got 2.5");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.head_dim = NAN; })),
                    "headDim must be a finite number, got NaN");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.layers = 4097; })),
                    "layers must be an integer in [1, 4096], got 4097");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_heads = 16; })),
                    "kvHeads must be an integer in [1, 8], got 16");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.kv_heads = 3; })),
                    "kvHeads must be a divisor of heads (8), so that query heads share key-value "
                    "heads in equal groups, got 3");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.batch = -1; })),
                    "batch must be an integer in [1, 4096], got -1");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.bytes_per_value = 0; })),
                    "bytesPerValue must be a number in (0, 1024], got 0");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.bytes_per_value = 2048; })),
                    "bytesPerValue must be a number in (0, 1024], got 2048");
  CHECK_THROWS_WITH(attention_cost(with([](auto& c) { c.bytes_per_value = INFINITY; })),
                    "bytesPerValue must be a finite number, got Infinity");
  CHECK_THROWS_WITH(attention_cost(AttentionCostConfig{}), Catch::StartsWith("tokens must be"));
}
