# `btfdump ext` text: every line_info record's source text must be the line
# of the file it names (empty for line 0). Prints one line per mismatch and
# "checked N" at the end. Used by check_gcc_bpf.sh.
/^line_info:/ { mode = "l"; next }
/^(func_info|core_relo):/ { mode = ""; next }
mode == "l" && /^\tinsn_off=/ {
	s = $0
	sub(/^\tinsn_off=[0-9]+ \(insn [0-9]+\) /, "", s)
	t = index(s, "\t")
	loc = substr(s, 1, t - 1)
	text = substr(s, t + 1)
	k = split(loc, b, ":")
	line = b[k - 1] + 0
	file = substr(loc, 1, length(loc) - length(b[k - 1]) - length(b[k]) - 2)
	n++
	if (line == 0) {
		if (text != "")
			print "line 0 with text: " $0
		next
	}
	if (!(file in seen)) {
		seen[file] = 1
		i = 0
		while ((getline l < file) > 0)
			src[file, ++i] = l
		close(file)
	}
	if (!((file, line) in src) || src[file, line] != text)
		print "text differs from " file ":" line ": " $0
}
END { print "checked " n }
