# btfgen-pahole: btfgen under a pahole name, for kernel builds (make PAHOLE=btfgen-pahole);
# btfgen takes pahole's command line when its name ends in "pahole".
ALL_TARGETS += $(B)/btfgen-pahole
$(B)/btfgen-pahole: $(B)/btfgen
	$(Q)ln -sf btfgen $@
