// Where `jolt-run benchmark` runs its profile children: the local executor (one child at a time on
// this machine, benchmark.cpp) or a cluster executor — one Slurm job array (`sbatch --array`) or
// GNU parallel over SSH (`--sshloginfile`) — that runs every task of the sweep plan, each a
// `jolt-run profile` into the shared out dir. The csv sink appends each run's row to
// {out}/modular_timings.csv under a flock(2) and each run publishes its own latest_ link, so
// results land as they do locally whichever host ran them.
//
// clang-format off
//   std::vector<SweepTask> tasks = ...;                // one per (workload, scale)
//   ClusterOptions opt{ExecutorKind::kSlurm, exe, "/abs/out", {"--partition=long"}, ...};
//   if (auto why = executor_unavailable(opt)) fail(*why);   // e.g. no sbatch on PATH
//   print_cluster_plan(opt, tasks, std::cout);          // --plan
//   ClusterResult r = run_cluster_sweep(opt, tasks);    // submits, polls, collects
// clang-format on
//
// The sweep's own files (the task script, its table, the task logs and exit statuses) go to
// {out}/.sweeps/{UTC timestamp}-{pid}/, one folder per sweep, so nothing a killed sweep leaves
// there blocks the next one. Not thread-safe.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "commands/benchmark/repeats.hpp"

namespace jolt::core {

enum class ExecutorKind { kLocal, kSlurm, kParallel };
// "local" | "slurm" | "parallel"; nullopt for anything else.
std::optional<ExecutorKind> parse_executor(const std::string& name);
const char* executor_name(ExecutorKind kind);

// One task of the plan: a (workload, scale) pair's `runs` measured runs, one after the other
// (runs of one pair cannot overlap: each holds the pair's run lock in the out dir,
// run_directory.hpp), stopping at the first failure as the local executor does.
struct SweepTask {
  std::string workload;
  std::uint32_t scale = 0;
  std::size_t runs = 1;
  std::vector<std::string> command;  // exe profile ... --out-dir {out}
};

struct ClusterOptions {
  ExecutorKind kind = ExecutorKind::kSlurm;
  std::string out_dir;                  // absolute: every host writes there
  std::vector<std::string> slurm_args;  // passed to sbatch before the script
  std::string sshloginfile;             // parallel: GNU parallel's --sshloginfile
  double poll_seconds = 10;             // slurm: how often squeue is asked
  // slurm: the --mem request (MiB) from the pre-flight estimate of the largest task; 0 = none.
  // Left out when slurm_args already asks for memory (--mem, --mem-per-cpu, --mem-per-gpu).
  std::uint64_t mem_mib = 0;
};

// Why the executor cannot run here (its tool not on PATH, an unreadable --sshloginfile), naming
// the tool and what to do; nullopt when it can.
std::optional<std::string> executor_unavailable(const ClusterOptions& opt);

// The first executable `name` on $PATH, or empty.
std::string find_on_path(const std::string& name);

// "--partition=long --time=2:00:00" split like a shell would (quotes respected). Throws
// std::invalid_argument naming the option on an unterminated quote.
std::vector<std::string> split_shell_words(const std::string& text);

// True when `args` already asks Slurm for memory.
bool slurm_args_request_memory(const std::vector<std::string>& args);

// The POSIX sh script every task runs: `sh tasks.sh ID` (parallel; output to task-ID.log) or as
// a Slurm array task (ID from SLURM_ARRAY_TASK_ID; Slurm writes the log). It runs task ID's
// command `runs` times (until one fails) and records "{exit status} {host} {runs done}" in
// task-ID.status (written atomically).
std::string task_script(const std::vector<SweepTask>& tasks, const std::string& sweep_dir);

// The launcher's command line: sbatch ... {sweep_dir}/tasks.sh, or parallel ... sh tasks.sh {}.
std::vector<std::string> launcher_command(const ClusterOptions& opt, const std::string& sweep_dir,
                                          std::size_t n_tasks);

// The job id sbatch --parsable printed ("123" or "123;cluster"); nullopt when there is none.
std::optional<std::string> parse_sbatch_job_id(const std::string& out);

// --plan for a cluster executor: the launcher command and each task's command.
void print_cluster_plan(const ClusterOptions& opt, const std::vector<SweepTask>& tasks,
                        const std::string& sweep_dir, std::ostream& out);

// The folder a sweep started now would use: {out}/.sweeps/{UTC timestamp}-{pid}.
std::string new_sweep_dir(const std::string& out_dir);

struct TaskOutcome {
  const SweepTask* task = nullptr;
  bool ok = false;            // every run of the task succeeded
  bool unfinished = false;    // no exit status after an interrupt: cancelled, not failed
  std::string job;            // slurm: "{job}_{index}"; parallel: "task {index}"
  std::string log;            // the task's log file
  std::string host;           // where it ran, when it recorded it
  std::string why;            // for a failed task: "run 2/3: exit status 1", "no exit status ..."
  std::size_t runs_done = 0;  // measured runs that succeeded
  std::vector<std::string> run_names;  // their directory names under the out dir
  std::vector<TimingRow> rows;         // their timings.csv rows
};

struct ClusterResult {
  bool launched = false;     // the launcher ran (sbatch accepted the array, parallel started)
  std::string error;         // why it did not, or why the sweep stopped early
  int interrupt_signal = 0;  // SIGINT/SIGTERM received while waiting (the jobs were cancelled)
  std::string sweep_dir;
  std::string job_id;                 // slurm
  std::vector<TaskOutcome> outcomes;  // one per task, in plan order
};

// Why a failed task failed, for the summary (after the task's "run 2/3: " prefix, if any).
// `rc`: the exit status it recorded, nullopt when it recorded none; `host`: where it ran;
// `slurm_state`: what Slurm says of the task ("CANCELLED", "TIMEOUT", ...; empty when unknown or
// not a Slurm task). A task that recorded no status, or one whose command was ended by a signal
// (status above 128) while Slurm ended the task early (cancelled, out of time or memory,
// preempted, its node failed), "did not run to its end" with Slurm's state: scancel's SIGTERM
// reaches the command and the task shell in either order, so both outcomes read alike.
std::string task_failure_reason(std::optional<int> rc, const std::string& host,
                                const std::string& slurm_state);
// True for the Slurm job states of a task ended before its end: CANCELLED, TIMEOUT,
// OUT_OF_MEMORY, PREEMPTED, NODE_FAIL, BOOT_FAIL, DEADLINE (with or without a reason after them).
bool slurm_state_ended_early(const std::string& state);

// Writes the sweep folder, launches every task, waits (printing progress and an ETA), and reads
// back each task's exit status, log and run directory.
ClusterResult run_cluster_sweep(const ClusterOptions& opt, const std::vector<SweepTask>& tasks);

}  // namespace jolt::core
