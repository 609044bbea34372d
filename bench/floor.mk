# The floor of btfgen (bench/bench_btfgen.sh): a walk of every DIE and
# nothing else, with this project's DWARF reader and with libdw
$(B)/bench/dwarf_floor: bench/dwarf_floor.c $(LIBA_INTERNAL)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA_INTERNAL) $(LDLIBS)
BENCH_DEPS += $(B)/bench/dwarf_floor
CHECK_DEPS += $(B)/bench/dwarf_floor
