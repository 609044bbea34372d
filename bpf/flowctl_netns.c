// SPDX-License-Identifier: BSD-2-Clause
/*
 * Network namespaces: attaching the dissector (netns bpf_link, or the older
 * BPF_PROG_ATTACH which acts on the caller's netns), querying, and a napi-frags
 * tap whose writes go through eth_get_headlen -> the dissector without an skb.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/if_tun.h>
#include <bpf/bpf.h>
#include "flowctl.h"

int flow_netns_open(const char *name)
{
	char path[4096];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int flow_attach_link(int prog_fd, int netns_fd)
{
	int fd = bpf_link_create(prog_fd, netns_fd, BPF_FLOW_DISSECTOR, NULL);

	return fd < 0 ? -errno : fd;
}

int flow_in_netns(int netns_fd, int (*fn)(void *), void *arg)
{
	int home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	int rc;

	if (home < 0)
		return -errno;
	if (setns(netns_fd, CLONE_NEWNET)) {
		rc = -errno;
		close(home);
		return rc;
	}
	rc = fn(arg);
	if (setns(home, CLONE_NEWNET))
		rc = rc ? rc : -errno;
	close(home);
	return rc;
}

struct prog_op { int prog_fd; int attach; };

static int prog_op(void *p)
{
	struct prog_op *op = p;
	int rc;

	/* target_fd and flags must be 0: the kernel uses the caller's netns. */
	if (op->attach)
		rc = bpf_prog_attach(op->prog_fd, 0, BPF_FLOW_DISSECTOR, 0);
	else
		rc = bpf_prog_detach2(op->prog_fd, 0, BPF_FLOW_DISSECTOR);
	return rc ? -errno : 0;
}

int flow_attach_prog(int prog_fd, int netns_fd)
{
	struct prog_op op = { prog_fd, 1 };

	return flow_in_netns(netns_fd, prog_op, &op);
}

int flow_detach_prog(int prog_fd, int netns_fd)
{
	struct prog_op op = { prog_fd, 0 };

	return flow_in_netns(netns_fd, prog_op, &op);
}

int flow_query(int netns_fd, __u32 *prog_id)
{
	__u32 ids[1] = { 0 }, cnt = 1;

	*prog_id = 0;
	if (bpf_prog_query(netns_fd, BPF_FLOW_DISSECTOR, 0, NULL, ids, &cnt))
		return -errno;
	if (cnt)
		*prog_id = ids[0];
	return 0;
}

int flow_find_link(int netns_fd, __u32 *link_id)
{
	struct bpf_link_info info;
	struct stat st;
	__u32 id = 0, len;
	int fd;

	*link_id = 0;
	if (fstat(netns_fd, &st))
		return -errno;
	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_LINK_TYPE_NETNS &&
		    info.netns.attach_type == BPF_FLOW_DISSECTOR &&
		    info.netns.netns_ino == st.st_ino) {
			*link_id = id;
			close(fd);
			return 0;
		}
		close(fd);
	}
	return 0;
}

static int tap_open(const char *ifname, short flags)
{
	struct ifreq ifr;
	int fd, sk, rc;

	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	ifr.ifr_flags = flags;
	if (ioctl(fd, TUNSETIFF, &ifr))
		goto err;
	sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sk < 0)
		goto err;
	ifr.ifr_flags = IFF_UP;
	rc = ioctl(sk, SIOCSIFFLAGS, &ifr);
	close(sk);
	if (rc)
		goto err;
	return fd;
err:
	rc = -errno;
	close(fd);
	return rc;
}

int flow_tap_open(const char *ifname)
{
	return tap_open(ifname, IFF_TAP | IFF_NO_PI | IFF_NAPI | IFF_NAPI_FRAGS);
}

int flow_tap_open_plain(const char *ifname)
{
	return tap_open(ifname, IFF_TAP | IFF_NO_PI);
}
