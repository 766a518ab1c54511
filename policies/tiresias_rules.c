/* tiresias_rules.c - tiresias's rules job by job (tiresias.c's header),
 * read by both its decisions: the full pass (tiresias.c) and the
 * incremental one (tiresias_fast.c). */
#include <math.h>
#include <stdint.h>

#include "sim.h"
#include "tiresias_int.h"

double tir_weight(const struct sim_job *j)
{
	double g = 0, c = 0;
	for (int r = 0; r < j->shape->nroles; r++) {
		const struct sim_role *ro = &j->shape->role[r];
		g += ro->count * (ro->gpus ? ro->gpus : ro->gpu_milli / (double)CLU_GPU_MILLI);
		c += ro->count * (ro->cores ? ro->cores : CLU_MILLI) / (double)CLU_MILLI;
	}
	return g > 0 ? g : c;
}

bool tir_starved(const struct tir *p, const struct tj *t, int64_t now)
{
	if (p->guard_ref) /* run_sim.py: last_pending_time >= int(executed_time x k) */
		return t->exec_us > 0 &&
		       (double)t->lpend_us >= floor((double)t->exec_us * p->starve / 1e6) * 1e6;
	int64_t base = t->last_run > 0 ? t->last_run : (int64_t)(p->lim[0] * 1e6);
	return (double)(now - t->waiting) > p->starve * (double)base;
}

int64_t tir_wake_at(const struct tir *p, const struct tj *t, int64_t now)
{
	int64_t at = -1;
	if (t->running && !t->going && t->q < p->nq - 1 && isfinite(p->lim[t->q])) {
		double lim = p->lim[t->q];
		if (p->demote_ref) /* run_sim.py: t + (limit - executed_time) / num_gpu,
				      an integer division under Python 2 */
			at = now + (int64_t)floor((lim - (double)t->exec_us / 1e6) / t->w) * 1000000;
		else /* the instant its service reaches the limit */
			at = now + (int64_t)ceil((lim * 1e6 - t->w * (double)t->exec_us) / t->w);
	} else if (!t->running && p->starve > 0 && t->q > 0) {
		/* its promotion (reference §4 step 7's jump) */
		if (!p->guard_ref) {
			int64_t base = t->last_run > 0 ? t->last_run : (int64_t)(p->lim[0] * 1e6);
			at = t->waiting + (int64_t)floor(p->starve * (double)base) + 1;
		} else if (t->exec_us > 0) {
			double need = floor((double)t->exec_us * p->starve / 1e6) * 1e6 -
				      (double)t->lpend_us;
			at = need > 0 ? now + (int64_t)need : -1;
		}
	}
	return at >= 0 && at <= now ? now + 1 : at;
}

void tir_want(struct tir *p, struct sim *s, int64_t want)
{
	p->want_us = want;
	if (want >= 0 && want != p->pushed_us) {
		sim_policy_timer(s, (double)(want - sim_now(s)), TIR_TAG_WAKE);
		p->pushed_us = want;
	}
}
