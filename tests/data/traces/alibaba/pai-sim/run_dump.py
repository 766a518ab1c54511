# Runs the PAI simulator (Simulator, as run_simulator.py builds it) on
# traces/pai/pai_job_duration_estimate_100K.csv for each of its five
# allocation policies and writes, per policy, its summary line and every
# job's (job_id, submit_time, duration, jct).  Arguments: NUM_JOBS
# ARRIVAL_RATE NUM_GPUS OUT_PREFIX.
import sys, logging
from pathlib import Path
from simulator import Simulator
from utils import ALLOC_POLICY_DICT

num_jobs, rate, gpus, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
logging.basicConfig(level=logging.WARNING, format="%(message)s", filename=out + ".log", filemode="w")
with open(out + "-summary.csv", "w") as fs, open(out + "-jobs.csv", "w") as fj:
    fs.write("policy,avg_jct,wait_time,makespan,jobs_done\n")
    fj.write("policy,job_id,submit_time,duration,jct\n")
    for alloc in [0, 1, 2, 4, 8]:
        sim = Simulator(csv_file=Path("traces/pai/pai_job_duration_estimate_100K.csv"),
                        alloc_policy=alloc, preempt_policy=2, sort_node_policy=3, num_nodes=1,
                        random_seed=42, max_time=int(1e9), num_spare_node=0, pattern=0,
                        hetero=False, num_gpus=gpus, num_cpus=round(23.22 * gpus),
                        describe_file=None, log_file=Path(out + ".log"), export_job_stats=False,
                        export_cluster_util=False, arrival_rate=rate, num_jobs_limit=num_jobs,
                        gpu_type_matching=0, verbose=0)
        (n, jct, wait, makespan), = sim.simulator_go(repeat=1)
        name = ALLOC_POLICY_DICT[alloc]
        fs.write("%s,%.2f,%.2f,%.0f,%d\n" % (name, jct, wait, makespan, n))
        for j in sorted(sim.cluster.job_history.job_done_list, key=lambda e: e["job_id"]):
            fj.write("%s,%d,%d,%d,%d\n" % (name, j["job_id"], j["submit_time"], j["duration"], j["jct"]))
