// SPDX-License-Identifier: BSD-2-Clause
/*
 * Finding the dissector's maps in the kernel and printing last_dissection:
 * through btfdump's map printer (typed by the map's BTF), or, asked for with
 * --hex, as raw hex lines in bpftool's plain layout ("key: .. value: ..").
 * A btfdump that fails is an error, never a silent switch to hex.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "flowctl.h"

#define MAX_PROG_MAPS 16

static int name_matches(const struct bpf_map_info *m, const char *name)
{
	size_t n, k;

	if (!name)
		return m->btf_id != 0;
	if (name[0] != '.')
		return !strcmp(m->name, name);
	n = strlen(m->name);
	k = strlen(name);
	return n >= k && !strcmp(m->name + n - k, name);
}

int flow_prog_map(__u32 prog_id, const char *name, struct bpf_map_info *out)
{
	struct bpf_prog_info info;
	__u32 ids[MAX_PROG_MAPS], len = sizeof(info), mlen, i;
	int fd, rc = -ENOENT;

	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = MAX_PROG_MAPS;
	info.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		rc = -errno;
	close(fd);
	for (i = 0; rc == -ENOENT && i < info.nr_map_ids && i < MAX_PROG_MAPS; i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			continue;
		memset(out, 0, sizeof(*out));
		mlen = sizeof(*out);
		if (!bpf_obj_get_info_by_fd(fd, out, &mlen) && name_matches(out, name))
			rc = 0;
		close(fd);
	}
	return rc;
}

int flow_prog_config(__u32 prog_id, struct flow_config *cfg)
{
	struct bpf_map_info info;
	__u32 zero = 0;
	int fd, rc;

	rc = flow_prog_map(prog_id, ".rodata", &info);
	if (rc)
		return rc;
	if (info.value_size != sizeof(*cfg))
		return -EPROTO;
	fd = bpf_map_get_fd_by_id(info.id);
	if (fd < 0)
		return -errno;
	rc = bpf_map_lookup_elem(fd, &zero, cfg) ? -errno : 0;
	close(fd);
	return rc;
}

int flow_pinned_map_id(const char *path, __u32 *map_id)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd, rc;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	rc = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	close(fd);
	*map_id = info.id;
	return rc;
}

/*
 * btfdump next to this program (or $BTFDUMP); 0 if it printed the map, else
 * -EIO (its own message went to stderr) or -errno.
 */
static int dump_with_btfdump(__u32 map_id, int net)
{
	char self[4096], exe[4200], cmd[4400], buf[4096];
	const char *env = getenv("BTFDUMP");
	char *out = NULL, *grown;
	size_t got, outlen = 0;
	ssize_t n;
	FILE *f;

	if (env) {
		snprintf(exe, sizeof(exe), "%s", env);
	} else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n < 0)
			return -errno;
		self[n] = 0;
		snprintf(exe, sizeof(exe), "%s/btfdump", dirname(self));
	}
	snprintf(cmd, sizeof(cmd), "'%s' map id %u%s", exe, map_id,
		 net ? " --net" : "");
	/* Buffered, so a btfdump that fails half-way prints nothing. */
	f = popen(cmd, "r");
	if (!f)
		return -errno;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		grown = realloc(out, outlen + got);
		if (!grown)
			break;
		out = grown;
		memcpy(out + outlen, buf, got);
		outlen += got;
	}
	if (pclose(f) == 0 && outlen && !got) {
		n = fwrite(out, 1, outlen, stdout) == outlen ? 0 : -EIO;
		free(out);
		return n;
	}
	fprintf(stderr, "flowctl: %s map id %u failed%s\n", exe, map_id,
		outlen ? "" : " (no output)");
	free(out);
	return -EIO;
}

static int dump_hex(__u32 map_id)
{
	struct bpf_flow_keys val;
	const unsigned char *b = (const unsigned char *)&val;
	__u32 key, next, *prev = NULL;
	int fd, n = 0;
	size_t i;

	fd = bpf_map_get_fd_by_id(map_id);
	if (fd < 0)
		return -errno;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		printf("key: %02x %02x %02x %02x  value:", key & 0xff, (key >> 8) & 0xff,
		       (key >> 16) & 0xff, key >> 24);
		for (i = 0; i < sizeof(val); i++)
			printf("%s%02x", i % 8 ? " " : "  ", b[i]);
		printf("\n");
		n++;
	}
	printf("Found %d element%s\n", n, n == 1 ? "" : "s");
	close(fd);
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}

int flow_dump_keys(__u32 map_id, int net, int hex)
{
	return hex ? dump_hex(map_id) : dump_with_btfdump(map_id, net);
}
