#pragma once
/// @file engine.hpp
/// The one interface every Life kernel implements, CPU or GPU, and the registry that makes them
/// selectable by name (`flocklife life --kernel NAME`). The layout a kernel uses internally
/// (byte per cell, bit per cell, padded rows) is hidden: load() takes and world() returns a
/// plain byte-per-cell World.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "life/cell_layout.hpp"
#include "life/rule.hpp"
#include "life/world.hpp"

namespace flocklife::life {

enum class Backend { Cpu, Cuda };

/// Tuning parameters; 0 means "the kernel's default". Kernels ignore the ones they do not use.
struct KernelParams {
  int threadsPerBlock = 0;   ///< CUDA threads per block (multiple of 32, <= 1024)
  int cellsPerThread = 0;    ///< bytes / words / cells each thread evaluates (kernel-specific unit)
  int generationsPerLaunch = 0;  ///< temporal blocking depth k (kernels that support it)
  int threads = 0;           ///< CPU threads (0 = OpenMP default)
};

/// What the registry knows of a kernel.
struct KernelInfo {
  std::string name;         ///< e.g. "simple", "cpu-serial"
  Backend backend;
  std::string description;  ///< one line: layout and technique
  std::string source;       ///< the article or paper the technique comes from
  /// The host memory the kernel's own state takes (two generations): none for the GPU kernels
  /// (their state is on the device; the bit-per-cell ones pass the world through a host buffer of
  /// a bit per cell while loading and reading it back, not counted), a byte per cell, or a bit per
  /// cell in rows padded to whole 8-byte words (bit_layout.hpp). Counted with the start and final
  /// worlds before a run allocates anything.
  enum class HostState { None, BytePerCell, BitPerCell };
  HostState hostState = HostState::None;

  /// Bytes of that state for a width x height world: 2 w h for a byte per cell; for a bit per cell
  /// 2 h ceil(w / 64) 8, which is 16 bytes per row for a world 1 to 64 cells wide (a bit per cell
  /// would undercount narrow worlds 64-fold).
  std::uint64_t hostStateBytes(std::int64_t width, std::int64_t height) const;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual const KernelInfo& info() const = 0;
  /// Copies `world` in (to the device for GPU kernels). The rule was fixed at construction.
  virtual void load(const World& world) = 0;
  /// Advances `generations` generations (0 is allowed and does nothing).
  virtual void step(std::uint64_t generations) = 0;
  /// Blocks until all queued work is done (GPU kernels); CPU kernels return at once.
  virtual void synchronize() {}
  /// The current world, byte per cell.
  virtual World world() const = 0;
  /// Display hook (life/display.hpp): the current generation in device memory, in the engine's
  /// own layout (life/cell_layout.hpp), valid until the next load() or step(); reading it needs
  /// no copy and no conversion. Empty for CPU kernels and before load(): the display then takes
  /// world() through the host.
  virtual std::optional<CellView> deviceCells() const { return std::nullopt; }
  /// Bytes of state memory the engine holds (device memory for GPU kernels), for reports.
  virtual std::uint64_t stateBytes() const = 0;
};

/// Every kernel in this build (CPU kernels always; GPU kernels only when built with CUDA).
const std::vector<KernelInfo>& availableKernels();

/// The kernel called `name`. @throws InputError("--kernel: unknown kernel 'x'; available in this
/// build: ...").
const KernelInfo& findKernel(const std::string& name);

/// "cpu" or "cuda": a backend as --backend names it.
inline const char* backendName(Backend b) { return b == Backend::Cuda ? "cuda" : "cpu"; }

/// Runs `generations` on `engine` in pieces, each followed by synchronize(), calling `stop()`
/// between pieces and ending early when it returns true (or passing on what it throws), so that a
/// signal ends a long stretch within a piece. `piece` (>= 1) is kept by the caller across calls:
/// it doubles while a whole piece takes under 0.1 s (up to 2^40), so that once it reaches the
/// stretch's length a call is one step() and one synchronize(). With `waitShort` false, a call
/// shorter than `piece` (so under ~0.2 s at the rate measured) is one step() without the
/// synchronize(), as a window's frame was before pieces (the GPU then overlaps the host's next
/// frame). Returns the generations run (all of them where the call ends without a wait).
std::uint64_t stepInPieces(Engine& engine, std::uint64_t generations, std::uint64_t& piece,
                           const std::function<bool()>& stop, bool waitShort = true);

/// Whether the kernel called `name` runs OpenMP threads on the CPU (every CPU kernel but
/// cpu-serial): where other work holding a core slows it many times (noteIfCoresBusy).
/// @throws InputError as findKernel.
bool spinsCpuThreads(const std::string& name);

/// The kernel called `name` (findKernel), which must run on `backend` ("cpu" or "cuda") when one
/// is given (empty: any). @throws InputError as findKernel, or "--backend <backend> cannot run
/// --kernel <name>, which is a <its backend> kernel".
const KernelInfo& findKernelOn(const std::string& name, const std::string& backend);

/// Creates the kernel called `name` for `rule`.
/// @throws InputError as findKernel for an unknown name, and
///         std::invalid_argument naming the parameter for out-of-range params.
std::unique_ptr<Engine> makeEngine(const std::string& name, const Rule& rule, const KernelParams& params = {});

/// Runs `generations` of `rule` on `world` with the plain serial byte-per-cell loop: the oracle
/// that every other kernel is tested against.
World stepSerial(const World& world, const Rule& rule, std::uint64_t generations);

}  // namespace flocklife::life
