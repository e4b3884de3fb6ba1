// Your model (chapter section 4): configurations of every family read as transformers reads them,
// their caches, arithmetic and parameters, against reference/model.py's fixture() over the real
// files of tests/fixtures/models/ and the counts their authors publish, and every error.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "fixtures.hpp"
#include "llmmath/model.hpp"

using llmmath::model_cost;
using llmmath::model_from_config_text;
using llmmath::ModelCostOptions;
using llmmath::ModelShape;

namespace {

ModelCostOptions at(double tokens, double batch = 1, double bytes = 2) {
  ModelCostOptions o;
  o.tokens = tokens;
  o.batch = batch;
  o.kv_bytes_per_element = bytes;
  return o;
}

}  // namespace

TEST_CASE("model: GPT-2 small, every parameter counted exactly", "[model]") {
  const ModelShape s = model_from_config_text(
      R"({"model_type": "gpt2", "n_layer": 12, "n_head": 12, "n_embd": 768, "n_positions": 1024,
          "vocab_size": 50257})");
  CHECK(s.layers == 12);
  CHECK(s.head_dim == 64);
  CHECK(s.kv_heads == 12);
  CHECK(s.tied_embeddings);  // GPT-2's default, said in assumed
  const auto r = model_cost(s, at(1024));
  // wte 38,597,376 + wpe 786,432 + 12 × 7,087,872 + ln_f 1,536 (Hugging Face's count for gpt2)
  CHECK(r.params.total == 124439808);
  CHECK(r.params.embedding == 38597376 + 786432);
  // 2 · 12 layers · 12 heads · 64 · 1024 tokens · 2 bytes
  CHECK(r.kv_bytes == 2.0 * 12 * 12 * 64 * 1024 * 2);
}

TEST_CASE("model: head_dim in the file wins over hidden / heads (Mistral Nemo)", "[model]") {
  // 5120 / 32 = 160, but the file says 128: a cache 1.25× too large if the field were ignored
  const ModelShape s = model_from_config_text(
      R"({"model_type": "mistral", "num_hidden_layers": 40, "hidden_size": 5120, "head_dim": 128,
          "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
          "vocab_size": 131072, "max_position_embeddings": 1024000, "sliding_window": null})");
  CHECK(s.head_dim == 128);
  CHECK(!s.window);
  CHECK(s.layer_kinds == std::vector<std::string>(40, "full"));
  // 2 · 8 KV heads (not 32) · 128 · 40 layers · 2 bytes = 160 KiB per token
  CHECK(model_cost(s, at(1)).kv_bytes_per_token == 2.0 * 8 * 128 * 40 * 2);
}

TEST_CASE("model: sliding layers hold their window (gpt-oss's alternation)", "[model]") {
  std::string types;
  for (int i = 0; i < 24; ++i)
    types += std::string(i ? "," : "") + (i % 2 ? "\"full_attention\"" : "\"sliding_attention\"");
  const ModelShape s = model_from_config_text(
      R"({"model_type": "gpt_oss", "num_hidden_layers": 24, "hidden_size": 2880, "head_dim": 64,
          "num_attention_heads": 64, "num_key_value_heads": 8, "intermediate_size": 2880,
          "num_local_experts": 32, "num_experts_per_tok": 4, "vocab_size": 201088,
          "sliding_window": 128, "max_position_embeddings": 131072, "layer_types": [)" +
      types + "]}");
  REQUIRE(s.window);
  CHECK(*s.window == 128);
  const auto r = model_cost(s, at(131072));
  REQUIRE(r.by_kind.size() == 2);
  CHECK(r.by_kind[0].kind == "full");
  CHECK(r.by_kind[0].tokens_held == 131072);
  CHECK(r.by_kind[1].kind == "sliding");
  CHECK(r.by_kind[1].tokens_held == 128);
  const double per_layer_token = 2.0 * 8 * 64 * 2;
  CHECK(r.by_kind[1].bytes == 12 * per_layer_token * 128);
  CHECK(r.kv_bytes == 12 * per_layer_token * (131072 + 128));
  // counted as full, the sliding layers would double the cache at this length
  CHECK(r.kv_bytes < 0.51 * (24 * per_layer_token * 131072));
  // attention of the next token: full layers see every key, sliding ones 128
  CHECK(r.attention_flops == 2.0 * 64 * 128 * (12 * 131072 + 12 * 128));
}

TEST_CASE(
    "model: a latent cache is kv_lora_rank + qk_rope_head_dim; expanded is about 71× (DeepSeek-V3)",
    "[model]") {
  const ModelShape s = model_from_config_text(
      R"({"model_type": "deepseek_v3", "num_hidden_layers": 61, "hidden_size": 7168,
          "num_attention_heads": 128, "num_key_value_heads": 128, "intermediate_size": 18432,
          "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1,
          "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
          "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
          "v_head_dim": 128, "vocab_size": 129280, "max_position_embeddings": 163840,
          "topk_method": "noaux_tc", "num_nextn_predict_layers": 1, "tie_word_embeddings": false})");
  REQUIRE(s.mla);
  CHECK(s.layer_kinds == std::vector<std::string>(61, "mla"));
  const auto latent = model_cost(s, at(1));
  CHECK(latent.kv_bytes_per_token == 576.0 * 61 * 2);
  ModelCostOptions o = at(1);
  o.mla_cache = llmmath::MlaCache::expanded;
  const auto expanded = model_cost(s, o);
  CHECK(expanded.kv_bytes_per_token == 128.0 * (192 + 128) * 61 * 2);
  CHECK(expanded.kv_bytes / latent.kv_bytes == Approx(40960.0 / 576).epsilon(1e-15));  // 71.1
  // 671B total, 37B activated (DeepSeek-V3 report), the MTP layer not counted
  CHECK(latent.params.total == Approx(671e9).epsilon(0.005));
  REQUIRE(s.moe);
  CHECK(s.moe->moe_layers == 58);
  CHECK(s.moe->dense_layers == 3);
}

TEST_CASE("model: chunked layers (Llama 4) and the crossover of attention and linear arithmetic",
          "[model]") {
  const ModelShape s = model_from_config_text(
      R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text", "num_hidden_layers": 8,
          "hidden_size": 5120, "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
          "intermediate_size": 8192, "intermediate_size_mlp": 16384, "num_local_experts": 16,
          "num_experts_per_tok": 1, "vocab_size": 202048, "attention_chunk_size": 8192,
          "max_position_embeddings": 10485760}, "vision_config": {}})");
  CHECK(s.layer_kinds == std::vector<std::string>{"chunked", "chunked", "chunked", "full",
                                                  "chunked", "chunked", "chunked", "full"});
  REQUIRE(s.chunk);
  const auto r = model_cost(s, at(8193));
  // position 8193 starts a new chunk: the chunked layers see 1 key
  CHECK(r.attention_flops == 2.0 * 40 * 256 * (6 * 1 + 2 * 8193));
  CHECK(r.by_kind[1].kind == "chunked");
  CHECK(r.by_kind[1].tokens_held == 8192);
  REQUIRE(r.crossover_tokens);
  const double t = *r.crossover_tokens;
  const auto before = model_cost(s, at(t - 1)), after = model_cost(s, at(t));
  CHECK(after.attention_flops >= after.linear_flops);
  CHECK(before.attention_flops < before.linear_flops);
}

TEST_CASE("model: the largest batch and context that fit a memory", "[model]") {
  const ModelShape s = model_from_config_text(
      R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
          "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
          "max_position_embeddings": 131072, "tie_word_embeddings": false})");
  ModelCostOptions o = at(8192);
  o.memory_bytes = 80e9;
  const auto r = model_cost(s, o);
  REQUIRE(r.fit);
  const double b = r.fit->max_batch, t = r.fit->max_tokens;
  auto cost = [&](double tokens, double batch) {
    const auto c = model_cost(s, at(tokens, batch));
    return c.weights_bytes + c.kv_bytes;
  };
  CHECK(cost(8192, b) <= 80e9);
  CHECK(cost(8192, b + 1) > 80e9);
  CHECK(t == 131072);  // one sequence of the whole context fits in 80 GB
  o.memory_bytes = 17e9;
  const auto tight = model_cost(s, o);
  CHECK(cost(tight.fit->max_tokens, 1) <= 17e9);
  CHECK(cost(tight.fit->max_tokens + 1, 1) > 17e9);
  o.memory_bytes = 1e9;  // the weights alone do not fit
  CHECK(model_cost(s, o).fit->max_batch == 0);
  CHECK(model_cost(s, o).fit->max_tokens == 0);
}

TEST_CASE("model: every fault of a configuration names its field", "[model][errors]") {
  using Catch::Matchers::Contains;
  const std::string ok =
      R"("model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "intermediate_size": 11008, "vocab_size": 32000)";
  CHECK_THROWS_WITH(model_from_config_text("[1, 2]"),
                    "config must be an object (the contents of a config.json), got an array");
  CHECK_THROWS_WITH(model_from_config_text("{" + ok + "}"),
                    "config.num_hidden_layers must be present: a positive integer (at most 4,096), "
                    "got nothing (the field is missing)");
  CHECK_THROWS_WITH(
      model_from_config_text(R"({"num_hidden_layers": "32", )" + ok + "}"),
      "config.num_hidden_layers must be a positive integer (at most 4,096), got \"32\"");
  CHECK_THROWS_WITH(
      model_from_config_text(R"({"num_hidden_layers": 32.5, )" + ok + "}"),
      "config.num_hidden_layers must be a positive integer (at most 4,096), got 32.5");
  CHECK_THROWS_WITH(
      model_from_config_text(R"({"num_hidden_layers": 32, "num_key_value_heads": 5, )" + ok + "}"),
      "config.num_key_value_heads must be a divisor of config.num_attention_heads (32), got 5");
  CHECK_THROWS_WITH(
      model_from_config_text(R"({"num_hidden_layers": 32, "sliding_window": -4096, )" + ok + "}"),
      "config.sliding_window must be a positive integer (at most 1,073,741,824), got -4096");
  CHECK_THROWS_WITH(
      model_from_config_text(R"({"num_hidden_layers": 2, "layer_types": ["full_attention"], )" +
                             ok + "}"),
      "config.layer_types must be one entry per layer (2), got 1 entries");
  CHECK_THROWS_WITH(
      model_from_config_text(
          R"({"num_hidden_layers": 2, "layer_types": ["sliding_attention", "full_attention"], )" +
          ok + "}"),
      "config.sliding_window must be a positive integer when layers slide, got nothing (the field "
      "is missing)");
  CHECK_THROWS_WITH(model_from_config_text(
                        R"({"text_config": {"num_attention_heads": "8"}, "model_type": "gemma3"})"),
                    "config.text_config.num_attention_heads must be a positive integer (at most "
                    "4,096), got \"8\"");
  CHECK_THROWS_WITH(model_from_config_text("{\n  \"a\": 1\n  \"b\": 2\n}"),
                    "config.json, line 3, column 3: expected ',' or '}' after a member, got '\"'");
  // an unknown kind of layer is said, never silently dropped
  const ModelShape odd = model_from_config_text(
      R"({"num_hidden_layers": 2, "layer_types": ["linear_attention", "full_attention"], )" + ok +
      "}");
  std::string said;
  for (const auto& sentence : odd.assumed) said += sentence + "\n";
  CHECK_THAT(
      said,
      Contains(
          "layer_types[0] is \"linear_attention\", a kind of layer this calculator does not know"));
}

TEST_CASE("model: a shape handed back is checked field by field", "[model][errors]") {
  llmmath::json::Value v = llmmath::json::parse(
      R"({"modelType": "llama", "layers": 2, "hidden": 64, "heads": 4, "kvHeads": 3, "headDim": 16,
          "vHeadDim": 16, "intermediate": 128, "vocab": 100, "tiedEmbeddings": false, "maxContext": 128,
          "layerKinds": ["full", "full"], "window": null, "chunk": null, "mla": null, "moe": null,
          "gatedMlp": true, "attentionBias": "none", "mlpBias": false, "normKind": "rms",
          "normsPerLayer": 2, "qkNorm": false, "attentionSinks": false, "positionEmbeddings": 0,
          "assumed": []})",
      "shape");
  CHECK_THROWS_WITH(llmmath::model_shape(v),
                    "shape.kvHeads must be a divisor of shape.heads (4), got 3");
  v.members[4].second.number = 2;
  CHECK_NOTHROW(llmmath::model_shape(v));
  v.members[11].second.items.pop_back();
  CHECK_THROWS_WITH(llmmath::model_shape(v),
                    "shape.layerKinds must be one entry per layer (2), got 1 entries");
  CHECK_THROWS_WITH(llmmath::model_shape(llmmath::json::parse("{}", "shape")),
                    "shape.modelType must be present (a shape as modelFromConfig returns it), got "
                    "nothing (the field is missing)");
  const ModelShape s = llmmath::model_shape(llmmath::json::parse(
      R"({"modelType": "llama", "layers": 1, "hidden": 64, "heads": 4, "kvHeads": 4, "headDim": 16,
          "vHeadDim": 16, "intermediate": 128, "vocab": 100, "tiedEmbeddings": true, "maxContext": 128,
          "layerKinds": ["full"], "window": null, "chunk": null, "mla": null, "moe": null,
          "gatedMlp": true, "attentionBias": "none", "mlpBias": false, "normKind": "rms",
          "normsPerLayer": 2, "qkNorm": false, "attentionSinks": false, "positionEmbeddings": 0,
          "assumed": []})",
      "shape"));
  CHECK_THROWS_WITH(model_cost(s, at(0)),
                    "opts.tokens must be an integer in [1, 1073741824], got 0");
  CHECK_THROWS_WITH(model_cost(s, at(1, 1, 0)),
                    "opts.kvBytesPerElement must be in (0, 64] (2 for bf16/fp16, 1 for fp8/int8, "
                    "0.5 for int4), got 0");
}
