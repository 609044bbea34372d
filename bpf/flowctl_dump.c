// SPDX-License-Identifier: BSD-2-Clause
/*
 * Finding the dissector's maps in the kernel and printing last_dissection:
 * through btfdump's map printer when it works, else as raw hex lines in
 * bpftool's plain layout ("key: .. value: ..").
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
		if (!bpf_obj_get_info_by_fd(fd, out, &mlen) &&
		    (name ? !strcmp(out->name, name) : out->btf_id != 0))
			rc = 0;
		close(fd);
	}
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

/* btfdump next to this program (or $BTFDUMP); 0 if it printed the map. */
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
			return -1;
		self[n] = 0;
		snprintf(exe, sizeof(exe), "%s/btfdump", dirname(self));
	}
	snprintf(cmd, sizeof(cmd), "'%s' map id %u%s 2>/dev/null", exe, map_id,
		 net ? " --net" : "");
	/* Buffered, so a btfdump that fails half-way prints nothing. */
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		grown = realloc(out, outlen + got);
		if (!grown)
			break;
		out = grown;
		memcpy(out + outlen, buf, got);
		outlen += got;
	}
	if (pclose(f) == 0 && outlen) {
		fwrite(out, 1, outlen, stdout);
		free(out);
		return 0;
	}
	free(out);
	return -1;
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
	return 0;
}

int flow_dump_keys(__u32 map_id, int net, int *used_btfdump)
{
	*used_btfdump = !dump_with_btfdump(map_id, net);
	return *used_btfdump ? 0 : dump_hex(map_id);
}
