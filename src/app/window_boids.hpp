#pragma once
/// @file window_boids.hpp
/// `flocklife boids --window`: the boids view. Boids are drawn as points coloured by velocity in
/// a perspective view of the cube [-scale, scale]^3 (its edges drawn) with an orbit camera.
/// Mouse: drag rotates, scroll zooms. Keys: space pause, N one step, R reset, 1..9 switch the
/// method live, + / - double / halve the boid count, Esc quit.
///
/// The view talks to the simulation through BoidsSource, whose writeVertices() is the boids
/// module's contract `boids::Simulation::writeVertices(float* out, bool outIsDevice)`: numBoids
/// x 6 floats (x, y, z, r, g, b) into a caller buffer, a device pointer (the mapped GL vertex
/// buffer, interop) or a host one (uploaded).
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "app/window_options.hpp"

namespace flocklife::app {

class BoidsSource {
 public:
  virtual ~BoidsSource() = default;
  virtual std::int64_t numBoids() const = 0;
  /// Half the cube's edge: boids live in [-scale, scale]^3 (world units).
  virtual float scale() const = 0;
  /// Advances one time step, unless `stop` answers true first: a CPU method asks it within the step
  /// and then abandons the step (boids::Simulation::stepUntilStopped). Whether the step was made.
  virtual bool step(const std::function<bool()>& stop) = 0;
  /// Restarts from a fresh initial state (same count and method).
  virtual void reset() = 0;
  /// Switches to the n-th method (key 1..9) of the current backend, in the registry's order; false
  /// when there is no such method.
  virtual bool setMethod(int oneBased) = 0;
  /// The methods of the current backend that setMethod picks from.
  virtual int methodCount() const = 0;
  virtual std::string methodName() const = 0;
  /// Restarts with n boids. @throws InputError for n outside [1, 2^31 - 1] and OutOfMemoryError
  /// when n boids do not fit; either way the running boids are kept as they were.
  virtual void setNumBoids(std::int64_t n) = 0;
  /// True when writeVertices() accepts a device pointer (GPU methods).
  virtual bool writesDevice() const = 0;
  /// numBoids() x 6 floats (x, y, z, r, g, b; colours in [0, 1]) into `out`.
  virtual void writeVertices(float* out, bool outIsDevice) = 0;
};

/// Orbit camera looking at the origin: yaw and pitch in radians, distance in units of scale.
struct OrbitCamera {
  float yawRadians = 0.6f, pitchRadians = 0.45f, distance = 5.0f;
};

/// Column-major 4x4 model-view-projection matrix (45 degree vertical field of view) for the
/// cube [-scale, scale]^3 seen by `camera` in a window of aspect width / height.
std::array<float, 16> orbitMvp(const OrbitCamera& camera, float scale, float aspect);

/// Runs the window until it closes or --frames N frames are drawn (one step per frame).
/// @param cudaDevice the CUDA device of GPU methods (-1: none)
/// @throws InputError for bad window options; std::runtime_error when no GL context exists.
void runBoidsWindow(const WindowOptions& options, BoidsSource& source, int cudaDevice);

}  // namespace flocklife::app
