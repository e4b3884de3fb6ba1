// The devices Figure 4.2 (<llm-model>) serves a model on: common data-centre and desk GPUs, each
// with the memory its driver reports and the bandwidth and peak its maker states. Inputs to the
// core's serving plan (modelCost's devices), not numbers it computes.
//
// memoryMiB: the total nvidia-smi (rocm-smi for the MI300X) reports, in MiB, as pasted in public
//   logs; CUDA itself sees a few hundred MiB less (H100 SXM: 81,106 of 81,559), which the figure's
//   reserve covers.
// bandwidthGBs: the data sheet's memory bandwidth, in GB/s (10^9 bytes a second).
// peakTflops: the data sheet's dense 16-bit tensor throughput (BF16; FP16 with FP32 accumulation
//   on the T4 and the GeForce cards), without sparsity, in 10^12 operations a second.
// Sources: NVIDIA's data sheets (H100 Tensor Core GPU; H200; A100 Tensor Core GPU; L40S; L4; T4),
// the NVIDIA Ada GPU Architecture whitepaper (RTX 4090, its table of GeForce RTX 4090 specifications)
// and the NVIDIA Ampere GA102 GPU Architecture whitepaper (RTX 3090), AMD's Instinct MI300X data
// sheet. nvidia-smi totals from startup logs and nvidia-smi output pasted in public issues and
// repositories (81559MiB for the H100, 143771MiB for the H200, and so on).
export const DEVICES = Object.freeze(
  [
    {
      id: "h100-sxm",
      name: "H100 SXM 80 GB",
      kind: "data centre",
      memoryMiB: 81559,
      bandwidthGBs: 3350,
      peakTflops: 989,
    },
    {
      id: "h100-pcie",
      name: "H100 PCIe 80 GB",
      kind: "data centre",
      memoryMiB: 81559,
      bandwidthGBs: 2000,
      peakTflops: 756,
    },
    {
      id: "h200",
      name: "H200 SXM 141 GB",
      kind: "data centre",
      memoryMiB: 143771,
      bandwidthGBs: 4800,
      peakTflops: 989,
    },
    {
      id: "a100-80",
      name: "A100 SXM 80 GB",
      kind: "data centre",
      memoryMiB: 81920,
      bandwidthGBs: 2039,
      peakTflops: 312,
    },
    { id: "a100-40", name: "A100 40 GB", kind: "data centre", memoryMiB: 40960, bandwidthGBs: 1555, peakTflops: 312 },
    {
      id: "mi300x",
      name: "Instinct MI300X 192 GB",
      kind: "data centre",
      memoryMiB: 196592,
      bandwidthGBs: 5300,
      peakTflops: 1307,
    },
    { id: "l40s", name: "L40S 48 GB", kind: "data centre", memoryMiB: 46068, bandwidthGBs: 864, peakTflops: 362 },
    { id: "l4", name: "L4 24 GB", kind: "data centre", memoryMiB: 23034, bandwidthGBs: 300, peakTflops: 121 },
    { id: "t4", name: "T4 16 GB", kind: "data centre", memoryMiB: 15360, bandwidthGBs: 320, peakTflops: 65 },
    {
      id: "rtx-4090",
      name: "GeForce RTX 4090 24 GB",
      kind: "desk",
      memoryMiB: 24564,
      bandwidthGBs: 1008,
      peakTflops: 165,
    },
    {
      id: "rtx-3090",
      name: "GeForce RTX 3090 24 GB",
      kind: "desk",
      memoryMiB: 24576,
      bandwidthGBs: 936,
      peakTflops: 71,
    },
  ].map((d) => Object.freeze(d)),
);

export const deviceById = (id) => DEVICES.find((d) => d.id === id) ?? null;

/**
 * The core's devices (modelCost's option) for `count` of device `d` (an entry of DEVICES): its
 * memory in bytes, bandwidth in bytes a second and peak in operations a second. The build's facts
 * (site/model-facts.mjs, site/noscript.mjs) and the tests cost a model on a device through it.
 */
export const servingDevices = (d, count = 1) => ({
  count,
  memoryBytes: d.memoryMiB * 2 ** 20,
  bandwidthBytesPerSecond: d.bandwidthGBs * 1e9,
  flopsPerSecond: d.peakTflops * 1e12,
});
