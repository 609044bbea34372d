# `btfdump ext` text -> one "SECTION FUNCTION FILE:LINE" per line_info record
# with a line (line 0 means "no line"), FUNCTION being the func_info at or
# before the record's instruction (the function it belongs to). Lines that
# hold only a brace are left out (gcc puts a function's entry and exit on its
# braces, clang on the signature and the last statement). Used by
# check_gcc_bpf.sh to compare which source lines each function covers.
/^func_info:/ { mode = "f"; next }
/^line_info:/ { mode = "l"; next }
/^core_relo:/ { mode = ""; next }
/^section '/ { sec = $2; gsub("'", "", sec); next }
mode == "f" && /insn_off=/ {
	split($1, a, "=")
	n = nf[sec]++
	foff[sec, n] = a[2] + 0
	fname[sec, n] = $NF
	gsub("'", "", fname[sec, n])
	next
}
mode == "l" && /insn_off=/ {
	split($1, a, "=")
	off = a[2] + 0
	k = split($4, b, ":")
	f = "?"
	for (i = 0; i < nf[sec]; i++)
		if (foff[sec, i] <= off)
			f = fname[sec, i]
	t = index($0, ":" b[k - 1] ":" b[k] "\t")
	text = t ? substr($0, t + length(b[k - 1]) + length(b[k]) + 3) : ""
	if (b[k - 1] > 0 && text !~ /^[ \t]*[{}][ \t]*$/)
		print sec, f, b[1] ":" b[k - 1]
}
