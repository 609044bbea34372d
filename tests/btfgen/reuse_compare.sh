# shellcheck shell=bash
# Sourced by the btfgen reuse tests (not a test itself): converting with and
# without reuse and comparing the two. Needs B (the build directory).
# fingerprint RAW1 RAW2: colour refinement (Weisfeiler-Leman) over the type
# graphs of two raw dumps with one shared colour table; prints the types
# whose colour occurs a different number of times, exits 1 if any. With a
# third argument, DATASECs are left out.
# shellcheck disable=SC2034 # ON, OFF: used by the sourcing scripts
ON=default          # btfgen --features: with reuse
OFF=default,-reuse  # and the exact conversion

fingerprint() {
	awk -v nosec="${3:-}" '
	function refs(s, f, id,   r) {
		while (match(s, /type_id=[0-9]+/)) {
			r = substr(s, RSTART + 8, RLENGTH - 8)
			nref[f, id]++; ref[f, id, nref[f, id]] = r
			s = substr(s, RSTART + RLENGTH)
		}
	}
	FNR == 1 { f++ }
	/^\[[0-9]+\] / && nosec != "" { skip = $2 == "DATASEC" }
	skip { next }
	/^\[[0-9]+\] / {
		id = substr($1, 2, length($1) - 2); ids[f, ++nids[f]] = id
		line = $0; sub(/^\[[0-9]+\] /, "", line)
		first[f, id] = line
		refs(line, f, id); gsub(/type_id=[0-9]+/, "type_id=#", line)
		lab[f, id] = line; next
	}
	/^\t/ {
		line = $0; refs(line, f, id); gsub(/type_id=[0-9]+/, "type_id=#", line)
		lab[f, id] = lab[f, id] "\n" line
	}
	END {
		if (f != 2) { print "fingerprint: need two dumps"; exit 2 }
		nc = 0
		for (g = 1; g <= 2; g++) {
			col[g, 0] = "void"
			for (i = 1; i <= nids[g]; i++) {
				id = ids[g, i]
				if (!(lab[g, id] in c0)) c0[lab[g, id]] = ++nc
				col[g, id] = c0[lab[g, id]]
			}
		}
		prev = nc
		for (round = 0; round < 1000; round++) {
			delete d; m = 0
			for (g = 1; g <= 2; g++)
				for (i = 1; i <= nids[g]; i++) {
					id = ids[g, i]; k = col[g, id]
					for (j = 1; j <= nref[g, id]; j++) k = k "," col[g, ref[g, id, j]]
					if (!(k in d)) d[k] = ++m
					nx[g, id] = d[k]
				}
			for (g = 1; g <= 2; g++)
				for (i = 1; i <= nids[g]; i++) col[g, ids[g, i]] = nx[g, ids[g, i]]
			if (m == prev) break
			prev = m
		}
		for (g = 1; g <= 2; g++)
			for (i = 1; i <= nids[g]; i++) {
				c = col[g, ids[g, i]]; cnt[g, c]++; ex[c] = first[g, ids[g, i]]; all[c] = 1
			}
		bad = 0
		for (c in all)
			if (cnt[1, c] + 0 != cnt[2, c] + 0) {
				if (++bad <= 12) printf "  %dx vs %dx: %s\n", cnt[1, c], cnt[2, c], ex[c]
			}
		if (nids[1] < 1) { print "  no types parsed"; bad = 1 }
		exit bad ? 1 : 0
	}' "$1" "$2"
}

if command -v bpftool >/dev/null; then dump() { bpftool btf dump file "$1" format raw; }
else dump() { "$B/btfdump" file "$1" format raw; }; fi

# reuse_convert DIR NAME INPUT FEATURES JOBS: DIR/NAME.btf, .sig (btfsig,
# sorted), .raw (raw dump) and .cnt (the type count btfgen -v reports)
reuse_convert() {
	local d=$1 n=$2
	"$B/btfgen" -v -j "$5" --features "$4" -o "$d/$n.btf" "$3" 2>"$d/$n.log" ||
		{ echo "FAIL: btfgen --features $4 -j $5 $3"; cat "$d/$n.log"; return 1; }
	# (not through a pipe: a btfsig that fails or is missing must fail the test)
	"$B/tests/btfgen/btfsig" "$d/$n.btf" >"$d/$n.sig.unsorted" ||
		{ echo "FAIL: btfsig $d/$n.btf"; return 1; }
	[ -s "$d/$n.sig.unsorted" ] || { echo "FAIL: btfsig printed nothing for $d/$n.btf"; return 1; }
	sort "$d/$n.sig.unsorted" >"$d/$n.sig"
	dump "$d/$n.btf" >"$d/$n.raw" || { echo "FAIL: dump $d/$n.btf"; return 1; }
	sed -n 's/.* types before dedup, \([0-9]*\) after.*/\1/p' "$d/$n.log" >"$d/$n.cnt"
	[ -s "$d/$n.cnt" ] || { echo "FAIL: no type count in btfgen -v output"; cat "$d/$n.log"; return 1; }
}

# reuse_same DIR OFF ON WHAT: the reuse output ON must equal the exact
# output OFF (type count, btfsig lines with repeats, dump lines, graph)
reuse_same() {
	local d=$1 bad=0
	if [ "$(cat "$d/$2.cnt")" != "$(cat "$d/$3.cnt")" ]; then
		echo "FAIL: $4: $(cat "$d/$2.cnt") types exact, $(cat "$d/$3.cnt") with reuse"; bad=1
	fi
	if ! diff "$d/$2.sig" "$d/$3.sig" >"$d/sig.diff"; then
		echo "FAIL: $4: btfsig differs (< exact, > reuse):"; head -20 "$d/sig.diff"; bad=1
	fi
	if [ "$(wc -l <"$d/$2.raw")" != "$(wc -l <"$d/$3.raw")" ]; then
		echo "FAIL: $4: raw dump has $(wc -l <"$d/$2.raw") lines exact, $(wc -l <"$d/$3.raw") with reuse"; bad=1
	fi
	if ! fingerprint "$d/$2.raw" "$d/$3.raw" >"$d/fp.out"; then
		echo "FAIL: $4: type graphs differ (times in exact vs with reuse):"; cat "$d/fp.out"; bad=1
	fi
	return $bad
}
