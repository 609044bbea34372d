// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the CO-RE engine (libbtf_relo.h) on an arbitrary BPF
 * object against an arbitrary target BTF: every relocation resolved
 * (candidates, specs, matching, values, instruction checks), the externs,
 * and the minimal BTF, which must then pass the verifier's parse. Any input
 * must give clean results or a clean error, never a crash or a hang.
 *
 * Input layout: four bytes (little-endian) give the length of the target
 * BTF blob that follows; the rest is the object's ELF image.
 */
#include <stdlib.h>
#include "fuzz_common.h"
#include "libbtf_relo.h"

static int on_result(const struct lbtf_core_result *r, void *ctx)
{
	(void)lbtf_core_outcome_name(r->outcome);
	++*(unsigned long *)ctx;
	return 0;
}

static int on_extern(const struct lbtf_core_extern *e, void *ctx)
{
	(void)lbtf_core_extern_kind_name(e->kind);
	(void)lbtf_core_extern_outcome_name(e->outcome);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lbtf_core_object *o;
	struct lbtf_core_target *t;
	struct lbtf_core_min *m;
	struct lbtf *btf;
	unsigned long n = 0;
	size_t blen;
	void *out;
	size_t out_size;

	if (size < 4)
		return 0;
	blen = data[0] | data[1] << 8 | data[2] << 16 | (size_t)data[3] << 24;
	if (blen > size - 4)
		return 0;
	btf = lbtf_new(data + 4, blen, NULL);
	if (!btf)
		return 0;
	t = lbtf_core_target_new(btf, "fuzz.btf");
	o = lbtf_core_object_new("fuzz.o", data + 4 + blen, size - 4 - blen);
	if (t && o) {
		lbtf_core_relocate(o, t, on_result, &n);
		lbtf_core_externs(o, t, on_extern, NULL);
		m = lbtf_core_min_new(t);
		if (m && !lbtf_core_min_add(m, o) && !lbtf_core_min_btf(m, &out, &out_size)) {
			struct lbtf *min = lbtf_new(out, out_size, NULL);

			lbtf_free(min);
			free(out);
		}
		lbtf_core_min_free(m);
	}
	lbtf_core_object_free(o);
	lbtf_core_target_free(t);
	lbtf_free(btf);
	return 0;
}
