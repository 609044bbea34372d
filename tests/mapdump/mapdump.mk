# Map-dump tests (btfdump map vs bpftool map dump on live maps).
MAPDUMP_DIR := $(B)/tests/mapdump

$(MAPDUMP_DIR)/maps.bpf.o: tests/mapdump/maps.bpf.c tests/mapdump/maps.h
	@mkdir -p $(@D)
	$(BPF_CLANG) -g -O2 -target bpf -c -o $@ $<

$(MAPDUMP_DIR)/map_fixture: tests/mapdump/map_fixture.c tests/mapdump/maps.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

# btfdump_cmd_map() driven directly, independent of btfdump's main; linked
# like btfdump, with the internal archive (cli/ uses io/io.h's errno words)
MAPDUMP_CMD_SRCS := btfdump/cmd_map.c btfdump/map_walk.c
$(MAPDUMP_DIR)/map_driver: tests/mapdump/map_driver.c $(MAPDUMP_CMD_SRCS) btfdump/commands.h btfdump/map_walk.h $(CLI_OBJS) $(LIBA_INTERNAL)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ibtfdump -Icli $(CFLAGS) $(LDFLAGS) -o $@ tests/mapdump/map_driver.c $(MAPDUMP_CMD_SRCS) $(CLI_OBJS) $(LIBA_INTERNAL) $(LDLIBS)

CHECK_DEPS += $(MAPDUMP_DIR)/maps.bpf.o $(MAPDUMP_DIR)/map_fixture $(MAPDUMP_DIR)/map_driver
BENCH_DEPS += $(MAPDUMP_DIR)/maps.bpf.o $(MAPDUMP_DIR)/map_fixture $(MAPDUMP_DIR)/map_driver
