# fgd-bars.gp - the FGD study's bar charts (the paper's Figs. 11-14): for a
# family of pod lists, the GPU allocated at 100 % arrived GPU demand, a
# group of bars per list (one per policy: hetsim's seed mean) with the
# artifact's seed mean and standard deviation as a mark and error bar on
# each.
# scripts/reproduce sets: cells (its fgd-cells.csv: list,metric,policy,
# demand_pct,artifact,artifact_sd,hetsim,diff,verdict), lists (the
# family's list names, space-separated), labels (their short names, the
# same order), policies (space-separated), what (the family, for the
# title), outfile, fmt (png, the default, or svg).
if (!exists("fmt")) fmt = "png"
if (fmt eq "svg") {
	set terminal svg size 1000, 560 dynamic noenhanced font "sans,13" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 1000, 560 noenhanced font "sans,11" background "white"
	} else {
		set terminal png size 1000, 560 noenhanced background "#ffffff"
	}
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid ytics lc rgb "#dddddd"
set key outside right top nobox samplen 2
set style fill solid 0.85 noborder
set boxwidth 0.12
nl = words(lists)
np = words(policies)
set xrange [0.4:nl + 0.6]
set xtics ()
do for [i=1:nl] { set xtics add (word(labels, i) i) }
set ylabel "GPU allocated at 100 % arrived demand (% of capacity)"
set title sprintf("%s: hetsim's seed mean (bars) and the artifact's (mark: mean, bar: one standard deviation)", what)
colours = "#4a78b5 #d9752b #3f9b4f #b8423a #8661b0 #8a6d3b #c25b9f #707070"
# the bar of list i, policy j
x(i, j) = i + (j - (np + 1) / 2.0) * 0.13
hit(i, j) = strcol(1) eq word(lists, i) && strcol(2) eq "alloc" && strcol(3) eq word(policies, j) && column(4) == 100
set yrange [70:100]
plot for [j=1:np] for [i=1:nl] cells using (hit(i, j) ? x(i, j) : NaN):7 \
	with boxes lc rgb word(colours, (j - 1) % 8 + 1) title (i == 1 ? word(policies, j) : ""), \
     for [j=1:np] for [i=1:nl] cells using (hit(i, j) ? x(i, j) : NaN):5:6 \
	with yerrorbars pt 7 ps 0.5 lc rgb "#111111" title (i == 1 && j == 1 ? "artifact" : "")
