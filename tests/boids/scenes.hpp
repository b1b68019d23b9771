#pragma once
/// @file scenes.hpp
/// Initial states for the boids tests: random boids (sparse and dense), boids on grid-cell
/// boundaries and on the cube's faces, coincident boids, and pairs across a face.
#include <cmath>
#include <string>
#include <vector>

#include "boids/boids.hpp"

namespace flocklife::boids::test {

struct Scene {
  std::string name;
  State state;
  Params params;
};

/// name: "single" (1 boid in a corner), "pair" (2 coincident boids on an edge), "across" (2 boids
/// near opposite faces), "dense100", "lattice" (boids on every grid-cell boundary of every tested
/// cell width, faces included, plus coincident copies), "sparse-lattice" (fewer boids than cells at
/// cell width 2, on cell centres, boundaries and faces), "sparse-clump" (fewer boids than cells,
/// 30 of them in one clump), "sparse-crossing" (fewer boids than cells at cell width 2.5, half of
/// them within 1.5 units of the x faces, heading out of the cube), "pairs" (1,000 pairs of boids
/// 2 units apart, the pairs on a lattice 20 units apart: each boid has at most one neighbour for
/// its first 27 steps, at the default speed, so its sums do not depend on the order in which
/// neighbours are visited, and every method's result is the same bit for bit from run to run),
/// "offset-pairs" (64 pairs of boids 4.5 or 5.5 units apart, 30 units from every other pair, in a
/// cube of side 120: each boid's one neighbour lies between the radii 4 and 5 or 5 and 6, on a grid
/// sparse enough for counting and fast's coarse-lane kernel at cell width 2), "classic5000",
/// "dense5000", "classic50000", "clumps" (300 clumps of 1 to 40 boids, among them 10, 11 and 12
/// about the smallest group, kGroupMin 11, each within 0.15 units of its site, two of them at the
/// site itself, in a cube of side 30: the nearly coincident boids that the classic rules gather,
/// where counting and fast form boid groups, Tuning::groupRadius), "many-clumps" (12,000 clumps of
/// 16 boids, each within 0.15 units of a random site in a cube of side 160: more groups than a
/// large GPU holds warps of groupSumsKernel at once, 132 SMs x 36 on the H200, so that its warps
/// each take several groups in turn).
inline Scene makeScene(const std::string& name, bool periodic, std::uint64_t seed = 7) {
  Scene sc;
  sc.name = name;
  sc.params.periodic = periodic;
  Params& p = sc.params;
  State& s = sc.state;
  // Two boids: one at `site`, one `distance` from it in the direction of r.pos[k] (random positions
  // in the cube: a random direction), with velocities r.vel[k] and r.vel[k + 1], k = s.size().
  auto addPair = [&](const State& r, const Vec3& site, float distance) {
    const Vec3 u = r.pos[s.size()];
    const float k = distance / std::sqrt(u.x * u.x + u.y * u.y + u.z * u.z);
    s.vel.push_back(r.vel[s.size()]);
    s.pos.push_back(site);
    s.vel.push_back(r.vel[s.size()]);
    s.pos.push_back({site.x + k * u.x, site.y + k * u.y, site.z + k * u.z});
  };
  if (name == "single") {
    p.scale = 10;
    s.pos = {{10.f, 10.f, -10.f}};
    s.vel = {{0.5f, -0.5f, 0.25f}};
  } else if (name == "pair") {
    p.scale = 10;
    s.pos = {{-10.f, 0.f, 10.f}, {-10.f, 0.f, 10.f}};
    s.vel = {{0.5f, 0.f, 0.f}, {0.f, 0.5f, 0.f}};
  } else if (name == "across") {
    p.scale = 10;
    s.pos = {{-9.f, 0.f, 0.f}, {9.5f, 0.5f, 0.f}};
    s.vel = {{0.1f, 0.2f, 0.3f}, {-0.3f, 0.2f, 0.1f}};
  } else if (name == "lattice") {
    // Maximum rule distance 5, scale 10: cell widths 2.5, 5 and 10 (factors 0.5, 1, 2) all have
    // their boundaries on this lattice of spacing 2.5, faces at -10 and 10 included.
    p.scale = 10;
    const State r = randomState(800, p, 99);
    std::size_t k = 0;
    for (int x = 0; x <= 8; ++x)
      for (int y = 0; y <= 8; ++y)
        for (int z = 0; z <= 8; ++z, ++k) {
          s.pos.push_back({-10.f + 2.5f * float(x), -10.f + 2.5f * float(y), -10.f + 2.5f * float(z)});
          s.vel.push_back(r.vel[k]);
        }
    for (std::size_t c = 0; c < 40; ++c) {  // coincident copies with other velocities
      s.pos.push_back(s.pos[c * 17]);
      s.vel.push_back(r.vel[729 + c]);
    }
  } else if (name == "sparse-lattice") {
    // Fewer boids than cells at cell width 2 (5^3 cells of 10 units), as at constant density,
    // where counting and fast walk per boid (coarseLaneKernel): rows of boids 2.5 apart along x
    // through cell centres (0, +-10, +-20: the padded reach spans 3 cells there), boundaries
    // (+-5, +-15) and faces (+-25), plus coincident copies.
    p.scale = 25;
    const State r = randomState(120, p, 98);
    const float yz[5][2] = {{0.f, 0.f}, {-10.f, 5.f}, {20.f, -15.f}, {-25.f, 10.f}, {15.f, 25.f}};
    std::size_t k = 0;
    for (const auto& row : yz)
      for (int x = 0; x <= 20; ++x, ++k) {
        s.pos.push_back({-25.f + 2.5f * float(x), row[0], row[1]});
        s.vel.push_back(r.vel[k]);
      }
    for (std::size_t c = 0; c < 4; ++c) {
      s.pos.push_back(s.pos[c * 23]);
      s.vel.push_back(r.vel[105 + c]);
    }
  } else if (name == "sparse-clump") {
    // Fewer boids than cells at cell width 2 (5^3 cells of 10 units), as at constant density, but
    // 30 of them within 2 units of one point: each has 29 neighbours, the others few or none.
    p.scale = 25;
    s = randomState(70, p, 97);
    for (std::size_t k = 0; k < 30; ++k) {
      const Vec3 u = s.pos[k];  // in [-25, 25]^3: scaled into the clump's box
      s.pos[k] = {3.f + u.x * 0.04f, 3.f + u.y * 0.04f, 3.f + u.z * 0.04f};
    }
  } else if (name == "sparse-crossing") {
    // 400 boids, 9^3 cells of 13.3 units at cell width 2.5, so counting and fast walk per boid
    // (coarseLaneKernel); every other boid sits within 1.5 units of an x face, heading out.
    p.scale = 60;
    s = randomState(400, p, 96);
    for (std::size_t k = 0; k < s.size(); k += 2) {
      const float side = k % 4 == 0 ? 1.f : -1.f;
      s.pos[k].x = side * (60.f - 1.5f * float(k % 5) / 4.f);
      s.vel[k] = {side * 0.8f, 0.4f, -0.2f};
    }
  } else if (name == "pairs") {
    // Pairs 20 apart, each within 2 units of its site: boids of different pairs stay more than 5
    // (the largest rule distance) apart while each has moved less than 5.5 (27 steps of 0.2).
    const State r = randomState(2000, p, seed);
    for (int x = 0; x < 10; ++x)
      for (int y = 0; y < 10; ++y)
        for (int z = 0; z < 10; ++z)
          addPair(r, {-90.f + 20.f * float(x), -90.f + 20.f * float(y), -90.f + 20.f * float(z)}, 2.f);
  } else if (name == "offset-pairs") {
    p.scale = 60;
    const State r = randomState(128, p, seed);
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y)
        for (int z = 0; z < 4; ++z)
          addPair(r, {-45.f + 30.f * float(x), -45.f + 30.f * float(y), -45.f + 30.f * float(z)},
                  (x + y + z) % 2 == 0 ? 4.5f : 5.5f);
  } else if (name == "clumps") {
    p.scale = 15;
    const State sites = randomState(300, p, seed);
    const State jitter = randomState(40, p, seed + 1);  // in [-15, 15]^3, scaled into a clump
    const int sizes[] = {1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 16, 17, 31, 32, 33, 40};  // 10-12: kGroupMin 11
    for (std::size_t c = 0; c < sites.size(); ++c) {
      const Vec3 o{0.98f * sites.pos[c].x, 0.98f * sites.pos[c].y, 0.98f * sites.pos[c].z};  // 0.3 from the faces
      const int m = sizes[c % (sizeof sizes / sizeof sizes[0])];
      for (int k = 0; k < m; ++k) {
        const Vec3 u = k < 2 ? Vec3{} : jitter.pos[std::size_t(k)];
        const float f = 0.15f / (15.f * std::sqrt(3.f));  // |u| <= 15 sqrt(3)
        s.pos.push_back({o.x + f * u.x, o.y + f * u.y, o.z + f * u.z});
        s.vel.push_back(sites.vel[(c + std::size_t(k)) % sites.size()]);
      }
    }
  } else if (name == "many-clumps") {
    p.scale = 80;
    const State sites = randomState(12000, p, seed);
    const State jitter = randomState(16, p, seed + 1);  // in [-80, 80]^3, scaled into a clump
    for (std::size_t c = 0; c < sites.size(); ++c) {
      const Vec3 o{0.99f * sites.pos[c].x, 0.99f * sites.pos[c].y, 0.99f * sites.pos[c].z};  // 0.8 from the faces
      for (std::size_t k = 0; k < 16; ++k) {
        const Vec3 u = jitter.pos[k];
        const float f = 0.15f / (80.f * std::sqrt(3.f));  // |u| <= 80 sqrt(3)
        s.pos.push_back({o.x + f * u.x, o.y + f * u.y, o.z + f * u.z});
        s.vel.push_back(sites.vel[(c + k) % sites.size()]);
      }
    }
  } else {
    std::size_t n = 0;
    if (name == "dense100") n = 100, p.scale = 7;
    else if (name == "classic5000") n = 5000;
    else if (name == "dense5000") n = 5000, p.scale = 15;
    else if (name == "classic50000") n = 50000;
    else throw std::invalid_argument("makeScene: unknown scene " + name);
    s = randomState(n, p, seed);
  }
  return sc;
}

/// Largest per-boid velocity error |v - ref| / max(|ref|, floor), floor = 1e-2 * maxSpeed.
inline double maxRelativeVelocityError(const State& got, const State& ref, float maxSpeed) {
  double worst = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double dx = got.vel[i].x - ref.vel[i].x, dy = got.vel[i].y - ref.vel[i].y, dz = got.vel[i].z - ref.vel[i].z;
    const Vec3 r = ref.vel[i];
    const double norm = std::sqrt(double(r.x) * r.x + double(r.y) * r.y + double(r.z) * r.z);
    const double e = std::sqrt(dx * dx + dy * dy + dz * dz) / std::max(norm, 1e-2 * maxSpeed);
    if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
  }
  return worst;
}

/// Largest minimum-image position difference, world units.
inline double maxPositionError(const State& got, const State& ref, float scale) {
  double worst = 0;
  auto axis = [scale](float a, float b) {
    double d = std::fabs(double(a) - double(b));
    return std::min(d, 2.0 * scale - d);
  };
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double dx = axis(got.pos[i].x, ref.pos[i].x), dy = axis(got.pos[i].y, ref.pos[i].y),
                 dz = axis(got.pos[i].z, ref.pos[i].z);
    const double e = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
  }
  return worst;
}

}  // namespace flocklife::boids::test
