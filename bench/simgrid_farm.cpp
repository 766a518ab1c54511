/* simgrid_farm.cpp - the task farm of bench/run, simulated with SimGrid's
 * s4u API, to compare against `hetsim run` on the same inputs.
 *
 *   bench/simgrid_farm H C T GAP_US
 *
 * Platform: one full zone of H hosts of C cores each, 1 Gflop/s per core,
 * no links (nothing communicates).  Workload: T single-core tasks, task i
 * arriving at i * GAP_US µs and lasting 1 + ((i * 7919) mod 1000) / 100
 * seconds, i.e. 1e9 * that many flops on one core.
 *
 * Construction (FCFS over identical cores, as hetsim's fifo with
 * single-executor, single-task jobs and zero overheads), the fastest of the
 * ones tried here:
 *   - one worker actor per core (H * C), created once, each looping: take
 *     the oldest queued task (waiting on a condition variable while the
 *     queue is empty), execute() its flops on its host;
 *   - a master actor sleeps until each arrival, queues the task and wakes
 *     one idle worker.
 * (Creating one actor per task, the first version, took 144 s for the
 * 10^6-task farm here; this takes ~10 s with the configuration bench/run
 * passes: --cfg=contexts/factory:raw --cfg=contexts/stack-size:16.)
 * A host's C cores run C executions at full speed each (SimGrid's CPU
 * model with core_count = C), so a task's duration is exactly its flops
 * over 1e9.  Which core a task gets never changes any start time, so the
 * makespan (the clock when the simulation ends, first arrival = 0) equals
 * hetsim's makespan_s.
 *
 * Prints one CSV line:  makespan_s,tasks,wall_s
 * (wall_s covers platform creation and the simulation.)
 */
#include <simgrid/s4u.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

static const double SPEED = 1e9; /* flop/s per core */

int main(int argc, char** argv)
{
  auto t0 = std::chrono::steady_clock::now();
  sg4::Engine e(&argc, argv);
  if (argc != 5) {
    std::fprintf(stderr, "usage: simgrid_farm H C T GAP_US [--cfg=...]\n");
    return 2;
  }
  const int H = std::atoi(argv[1]);
  const int C = std::atoi(argv[2]);
  const long long T = std::atoll(argv[3]);
  const long long gap_us = std::atoll(argv[4]);
  if (H < 1 || C < 1 || T < 1 || gap_us < 0) {
    std::fprintf(stderr, "simgrid_farm: bad arguments\n");
    return 2;
  }

  auto* zone = sg4::create_full_zone("farm");
  std::vector<sg4::Host*> hosts;
  hosts.reserve(H);
  for (int h = 0; h < H; h++) {
    auto* host = zone->create_host("h" + std::to_string(h), SPEED);
    host->set_core_count(C);
    host->seal();
    hosts.push_back(host);
  }
  zone->seal();

  /* One worker actor per core, created once; the master queues each task
   * at its arrival and wakes one idle worker. */
  std::deque<double> queue; /* flops of tasks arrived and not started */
  sg4::MutexPtr mu = sg4::Mutex::create();
  sg4::ConditionVariablePtr cv = sg4::ConditionVariable::create();
  long long left = T;
  for (int h = 0; h < H; h++)
    for (int c = 0; c < C; c++)
      sg4::Actor::create("w", hosts[h], [&]() {
        for (;;) {
          std::unique_lock<sg4::Mutex> lock(*mu);
          while (queue.empty() && left > 0)
            cv->wait(lock);
          if (queue.empty())
            return;
          double flops = queue.front();
          queue.pop_front();
          lock.unlock();
          sg4::this_actor::execute(flops);
        }
      });
  sg4::Actor::create("master", hosts[0], [&]() {
    for (long long i = 0; i < T; i++) {
      double at = (double)(i * gap_us) / 1e6;
      if (sg4::Engine::get_clock() < at)
        sg4::this_actor::sleep_until(at);
      long long dur_us = 1000000 + ((i * 7919) % 1000) * 10000;
      std::unique_lock<sg4::Mutex> lock(*mu);
      queue.push_back((double)dur_us * 1e-6 * SPEED);
      left--;
      cv->notify_one();
    }
    std::unique_lock<sg4::Mutex> lock(*mu);
    cv->notify_all();
  });

  e.run();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%.6f,%lld,%.6f\n", sg4::Engine::get_clock(), T, wall);
  return 0;
}
