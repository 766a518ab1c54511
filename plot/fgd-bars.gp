# fgd-bars.gp - the FGD study's bar charts (the paper's Figs. 11-14): for a
# family of pod lists, the GPU allocated at 100 % arrived GPU demand, a
# group of bars per list (one per policy: hetsim's seed mean) with the
# artifact's seed mean and standard deviation as a mark and error bar on
# each.
# scripts/reproduce sets: cells (its fgd-cells.csv: list,metric,policy,
# demand_pct,artifact,artifact_sd,hetsim,diff,verdict), lists (the
# family's list names, space-separated), labels (their short names, the
# same order), policies (space-separated), colours (each policy's:
# `hetsim plot colours`), what (the family, for the title), plotdir,
# outfile, fmt (png, the default, or svg).
if (!exists("fmt")) fmt = "png"
figtitle = what.": GPU allocated at 100 % arrived GPU demand"
subtitle = "hetsim's seed mean (bars) and the artifact's (mark: mean, bar: one standard deviation)"
height = 600
load plotdir."/common.gp"
set datafile separator ","
set style fill solid 1 noborder
set boxwidth 0.12
nl = words(lists)
np = words(policies)
set xrange [0.4:nl + 0.6]
set xtics ()
do for [i=1:nl] { set xtics add (word(labels, i) i) }
set ylabel "GPU allocated, % of capacity"
set title fulltitle
# the bar of list i, policy j
x(i, j) = i + (j - (np + 1) / 2.0) * 0.13
hit(i, j) = strcol(1) eq word(lists, i) && strcol(2) eq "alloc" && strcol(3) eq word(policies, j) && column(4) == 100
set yrange [70:100]
plot for [j=1:np] for [i=1:nl] cells using (hit(i, j) ? x(i, j) : NaN):7 \
	with boxes lc rgb word(colours, j) title (i == 1 ? word(policies, j) : ""), \
     for [j=1:np] for [i=1:nl] cells using (hit(i, j) ? x(i, j) : NaN):5:6 \
	with yerrorbars pt 7 ps 0.5 lc rgb "#111111" title (i == 1 && j == 1 ? "artifact" : "")
