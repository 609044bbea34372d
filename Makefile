# Top-level build. Plain GNU make; each component adds its rules in its own
# fragment (*/*.mk) so they can grow independently.
#   make [all] | check | demo | bench | fuzz | install | clean
#   make SAN=1 check   -> ASan+UBSan build in build/san
.DEFAULT_GOAL := all

CC      ?= gcc
ifeq ($(CC),cc)
CC      := gcc
endif
CLANG   ?= clang
BPF_CLANG ?= clang-16
export BPF_CLANG # tests/lib.sh compiles BPF with it
PREFIX  ?= /usr/local
DESTDIR ?=
# The one version source: the programs' --version, lbtf_lib_version(),
# libbtf.pc and the soname (major) come from here. The symbol version nodes
# are libbtf/libbtf.map's, one per release that added symbols.
VERSION := 0.1.0
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wmissing-prototypes -Wcast-qual -Wformat-nonliteral -Werror \
           -Wno-unused-parameter -Wno-missing-field-initializers
CPPFLAGS += -Ilibbtf/include -Ilibbtf -I$(B)/gen -D_GNU_SOURCE
LDLIBS  += -lbpf -ldw -lelf -lz -lpthread

# Each object's header dependencies are generated next to it (.d files), so a
# changed header rebuilds only what includes it.
DEPFLAGS = -MMD -MP

# Quiet build lines ("  CC file"); V=1 prints the full commands.
ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

ifeq ($(SAN),1)
B       ?= build/san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
B       ?= build
endif

# ---- libbtf ---------------------------------------------------------------
# One directory a module (libbtf/<module>/*.c, its private header internal.h);
# public headers in libbtf/include.
LIB_SRCS := $(sort $(wildcard libbtf/*/*.c))
LIB_OBJS := $(patsubst libbtf/%.c,$(B)/obj/libbtf/%.o,$(LIB_SRCS))
LIB_PIC_OBJS := $(patsubst libbtf/%.c,$(B)/obj/libbtf/pic/%.o,$(LIB_SRCS))
LIB_HDRS := $(wildcard libbtf/*/*.h)
# Only what the public headers declare is exported (they push default visibility).
LIB_CFLAGS := -fvisibility=hidden
LIB_PUB_HDRS := $(wildcard libbtf/include/*.h)
LIBA  := $(B)/libbtf.a
LIBA_INTERNAL := $(B)/obj/libbtf-internal.a
LIBSO := $(B)/libbtf.so
VERSION_H := $(B)/gen/btf_tools_version.h

# Rewritten only when VERSION changes, so nothing rebuilds needlessly.
$(VERSION_H): FORCE
	@mkdir -p $(@D)
	@printf '/* generated from the Makefile'"'"'s VERSION */\n#define BTF_TOOLS_VERSION "%s"\n' \
		'$(VERSION)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE:
# the files that include it wait for it on a clean build (later, the .d files)
$(B)/obj/libbtf/core/version.o $(B)/obj/libbtf/pic/core/version.o: | $(VERSION_H)
# glibc's words for each errno value, for programs linked with another libc
# (libbtf/io/errno_words.c; the generator runs on the build machine)
ERRNO_WORDS_H := $(B)/gen/errno_words.h
$(ERRNO_WORDS_H): scripts/gen_errno_words.c
	@mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)$(CC) -D_GNU_SOURCE $(CFLAGS) $(LDFLAGS) -o $(B)/gen/gen_errno_words $<
	$(Q)$(B)/gen/gen_errno_words > $@.tmp && mv $@.tmp $@

$(B)/obj/libbtf/%.o: libbtf/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(B)/obj/libbtf/pic/%.o: libbtf/%.c
	@mkdir -p $(@D)
	$(call msg,CC-PIC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<
# libbtf.a holds one relocatable object whose hidden (internal) symbols are made
# local, so a program linking it sees only the lbtf_ API, as with libbtf.so.
# White-box tests link $(LIBA_INTERNAL), the plain archive of the objects.
$(B)/obj/libbtf.o: $(LIB_OBJS)
	$(call msg,LD-R,$@)
	$(Q)$(CC) $(LDFLAGS) -r -nostdlib -o $@ $^
	$(Q)objcopy --localize-hidden $@
$(LIBA): $(B)/obj/libbtf.o
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)ar rcs $@ $^
$(LIBA_INTERNAL): $(LIB_OBJS)
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)ar rcs $@ $^
$(LIBSO): $(LIB_PIC_OBJS) libbtf/libbtf.map
	$(call msg,LD,$@)
	$(Q)$(CC) -shared -Wl,--version-script=libbtf/libbtf.map -Wl,-soname,libbtf.so.$(VERSION_MAJOR) \
		$(LDFLAGS) -o $@ $(LIB_PIC_OBJS) $(LDLIBS)
$(B)/libbtf.pc: libbtf/libbtf.pc.in
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@
$(B)/libbtf-static.pc: libbtf/libbtf-static.pc.in
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

# ---- programs: one directory each, every .c of it linked with libbtf -----
# cli/: what the programs share on the command line (the error reporter, the
# exit status table, --version, stdout checks), linked into each. The programs
# link the internal archive: beside the API they use libbtf/io/io.h, the file
# input/output libbtf itself uses (not part of the API), as bpftool uses
# libbpf's internals.
CLI_OBJS := $(patsubst cli/%.c,$(B)/obj/cli/%.o,$(wildcard cli/*.c))
$(B)/obj/cli/%.o: cli/%.c | $(VERSION_H)
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) -Icli $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

PROGS := btfgen btfcheck btfdump
# With the archive of libbtf's objects the linker takes only the modules (and,
# with --as-needed, the shared libraries) each program uses: btfcheck and
# btfdump never load libdw and its compression libraries. Beside the API they
# use only io/io.h (tests/install/check_abi.sh checks their objects).
# btfcheck, the CI gate that runs once per object, btfgen, which a kernel
# build runs once per module, and btfdump, whose vmlinux.h is a build step
# of every BPF project, are static executables: they start in a fraction
# of the time a program spends loading and relocating shared libraries (a
# small module's encoding is ~25 ms, ~3 ms of it was the dynamic loader), and
# a CI job can copy them anywhere. A static link takes archives in dependency
# order, hence their own library lists. STATIC=0 links them dynamically;
# sanitizer builds cannot be static.
PROG_LDLIBS = $(if $(filter undefined,$(origin $(1)_LDLIBS)),$(LDLIBS),$($(1)_LDLIBS))
STATIC_PROGS := btfcheck btfgen btfdump
# btfcheck needs libc only (libbtf's kernel-id open, the one user of libbpf
# in what it links, is core/open_id.c, which it never calls)
btfcheck_LDLIBS :=
btfdump_LDLIBS := -lbpf -lelf -lz
btfgen_LDLIBS := -lbpf -ldw -lelf -llzma -lbz2 -lz -lpthread
ifneq ($(SAN),1)
ifneq ($(STATIC),0)
$(foreach p,$(STATIC_PROGS),$(eval $(p)_LDFLAGS := -static))
endif
endif
# btfcheck is linked with musl's libc (Debian's musl-dev) when it is there
# and the link is static (MUSL=0: glibc's): a fresh process is the price
# of a gate run once per object, and glibc's static start alone costs ~0.7
# ms on a virtual machine (68 CPUID instructions, each a trap to the
# hypervisor, mostly to size the caches for memcpy), musl's ~0.02 ms. Its
# objects, libbtf's among them, are compiled again for musl's headers into
# $(B)/obj/musl/ (the kernel's and libelf's headers after them). What it
# prints stays glibc's to the byte: errno words come from
# libbtf/io/errno_words.c, made of glibc's at build time.
# Its malloc is its own (btfcheck/musl/, linked only here): one region
# carved in address order, freed blocks kept by size class, nothing given
# back; musl's mapped a group per size class (13 objects in one command: 41
# page faults and 22 mmap/munmap/brk calls -> 33 and 3, none of them an
# anonymous mapping, with LBTFI_ONE_THREAD below).
MUSL_LIBDIR ?= /usr/lib/x86_64-linux-musl
MUSL_INCDIR ?= /usr/include/x86_64-linux-musl
MUSL_PROGS :=
ifneq ($(SAN),1)
ifneq ($(STATIC),0)
ifneq ($(MUSL),0)
ifneq ($(wildcard $(MUSL_LIBDIR)/libc.a),)
MUSL_PROGS := btfcheck
# (asked of the compiler once, not at each of the objects' compiles;
# LBTFI_ONE_THREAD: btfcheck has one thread, libbtf's thread-locals are
# plain statics there, libbtf/util/tls.h)
MUSL_CPPFLAGS := -DLBTFI_ONE_THREAD -nostdinc -isystem $(shell $(CC) -print-file-name=include) -isystem $(MUSL_INCDIR) \
		 -idirafter /usr/include -idirafter /usr/include/$(shell $(CC) -print-multiarch)
# Fewer first touches of a page, each a page fault of ~15-25 us here (a
# file page's maps its 64 KiB window): a position-dependent link has no
# .data.rel.ro (the tables of pointers go to .rodata, not to pages written
# at start), no unwind tables (C without exceptions: 22 KB of .eh_frame
# between the code and its data), and code, constants and headers in one
# mapping (-z noseparate-code: the windows run across them). btfcheck
# link.o 13 -> 12 faults, 0.718 -> 0.690 ms; maps_tc 16 -> 15. No RELRO
# either (nothing applies it in a static musl program): its alignment put
# musl's 32 bytes of .data.rel.ro alone on the data's first page, a fault
# of its own at the first use of stderr (-1 fault an object, 0.994x).
MUSL_CFLAGS := -fno-pie -fno-asynchronous-unwind-tables -fno-unwind-tables
MUSL_LDFLAGS := -Wl,-z,noseparate-code -Wl,-z,norelro
endif
endif
endif
endif
MUSL_LIB_OBJS := $(patsubst libbtf/%.c,$(B)/obj/musl/libbtf/%.o,$(LIB_SRCS))
MUSL_CLI_OBJS := $(patsubst cli/%.c,$(B)/obj/musl/cli/%.o,$(wildcard cli/*.c))
MUSL_LIBA := $(B)/obj/musl/libbtf-internal.a
$(B)/obj/musl/%.o: %.c | $(VERSION_H)
	@mkdir -p $(@D)
	$(call msg,CC-MUSL,$<)
	$(Q)$(CC) $(CPPFLAGS) -I$(firstword $(subst /, ,$*)) -Icli $(MUSL_CPPFLAGS) $(CFLAGS) \
		$(if $(filter libbtf/%,$*),$(LIB_CFLAGS)) $(MUSL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(MUSL_LIBA): $(MUSL_LIB_OBJS)
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)ar rcs $@ $^

define prog_rule
$(1)_SRCS := $$(wildcard $(1)/*.c)
$(1)_OBJS := $$(patsubst $(1)/%.c,$(B)/obj/$(1)/%.o,$$($(1)_SRCS))
$(B)/obj/$(1)/%.o: $(1)/%.c
	@mkdir -p $$(@D)
	$$(call msg,CC,$$<)
	$$(Q)$$(CC) $$(CPPFLAGS) -I$(1) -Icli $$(CFLAGS) $$(DEPFLAGS) -c -o $$@ $$<
$$($(1)_OBJS): | $$(VERSION_H)
endef
define prog_link_rule
$(B)/$(1): $$($(1)_OBJS) $$(CLI_OBJS) $$(LIBA_INTERNAL)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(LDFLAGS) $$($(1)_LDFLAGS) -o $$@ $$($(1)_OBJS) $$(CLI_OBJS) $$(LIBA_INTERNAL) \
		-Wl,--as-needed $$(call PROG_LDLIBS,$(1))
endef
# $(call MUSL_LINK,OBJS...): $@ linked statically with musl: its start files
# and libc.a by path (musl-gcc's specs are gcc's only), libgcc for what the
# compiler may call
MUSL_LINK = $(CC) -static -nostdlib $(LDFLAGS) $(MUSL_LDFLAGS) -o $@ $(MUSL_LIBDIR)/crt1.o $(MUSL_LIBDIR)/crti.o \
	    $(1) $(MUSL_LIBDIR)/libc.a $(shell $(CC) -print-libgcc-file-name) $(MUSL_LIBDIR)/crtn.o
# (with the program's musl/ directory: what only its musl link takes)
define musl_link_rule
$(1)_MUSL_OBJS := $$(patsubst $(1)/%.c,$(B)/obj/musl/$(1)/%.o,$$($(1)_SRCS) $$(wildcard $(1)/musl/*.c))
$(B)/$(1): $$($(1)_MUSL_OBJS) $$(MUSL_CLI_OBJS) $$(MUSL_LIBA)
	$$(call msg,LD-MUSL,$$@)
	$$(Q)$$(call MUSL_LINK,$$($(1)_MUSL_OBJS) $$(MUSL_CLI_OBJS) $$(MUSL_LIBA))
endef
$(foreach p,$(PROGS),$(eval $(call prog_rule,$(p))))
$(foreach p,$(PROGS),$(eval $(call $(if $(filter $(p),$(MUSL_PROGS)),musl_link_rule,prog_link_rule),$(p))))

ALL_TARGETS := $(LIBA) $(LIBSO) $(B)/libbtf.pc $(B)/libbtf-static.pc $(addprefix $(B)/,$(PROGS))

# Tests: fragments append executables/scripts to CHECK_TESTS; each is run by
# scripts/run-tests.sh (exit 0 pass, 77 skip, anything else fail).
CHECK_TESTS :=
CHECK_DEPS  :=
BENCHES     :=
FUZZERS     :=

include $(sort $(wildcard */*.mk */*/*.mk))
# every build of libbtf/io/errno_words.c (plain, PIC, fuzz, musl) waits for
# the generated table it includes
$(filter %/io/errno_words.o,$(LIB_OBJS) $(LIB_PIC_OBJS) $(FUZZ_LIB_OBJS) $(MUSL_LIB_OBJS)): $(ERRNO_WORDS_H)

all: $(ALL_TARGETS)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

deps:
	@bash scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all $(CHECK_DEPS)
	@B=$(B) SAN=$(SAN) bash scripts/run-tests.sh $(CHECK_TESTS)

demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all $(DEMO_DEPS)
	@B=$(B) bash scripts/demo.sh

bench: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all $(BENCH_DEPS)
	@B=$(B) bash bench/run.sh $(BENCHES)

fuzz: $(FUZZERS)

# man pages (man/NAME.SECTION, @VERSION@ filled in) and the bash completion,
# one copy per command name (bash-completion loads the file named after it)
MAN_PAGES := $(wildcard man/*.[0-9])
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/libbtf
	install -m 755 $(addprefix $(B)/,$(PROGS)) $(DESTDIR)$(PREFIX)/bin/
	ln -sf btfgen $(DESTDIR)$(PREFIX)/bin/btfgen-pahole
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib/libbtf.so.$(VERSION_MAJOR)
	ln -sf libbtf.so.$(VERSION_MAJOR) $(DESTDIR)$(PREFIX)/lib/libbtf.so
	install -m 644 libbtf/include/*.h $(DESTDIR)$(PREFIX)/include/libbtf/
	for pc in libbtf libbtf-static; do \
		sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libbtf/$$pc.pc.in \
			> $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$pc.pc || exit 1; \
	done
	for page in $(MAN_PAGES); do \
		dir=$(DESTDIR)$(PREFIX)/share/man/man$${page##*.}; \
		install -d $$dir && sed 's|@VERSION@|$(VERSION)|g' $$page > $$dir/$${page##*/} || exit 1; \
	done
	install -d $(DESTDIR)$(BASH_COMPLETION_DIR)
	for p in $(PROGS); do install -m 644 completion/btf-tools.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/$$p || exit 1; done

clean:
	rm -rf build

.PHONY: all deps check demo bench fuzz install clean FORCE
.DELETE_ON_ERROR:
