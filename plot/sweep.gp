# sweep.gp - (b) a metric against a sweep axis, one line per policy with
# its 95 % confidence band, and the change of one policy against the
# baseline at the largest axis value.  A point where a policy finished no
# job is not drawn (the line breaks) and says "POLICY: no job done" at
# its foot; "⚠ n/N" over a point marks jobs not done.
# Data (hetsim plot sweep): one block per policy, rows
# "x mean ci95_lo ci95_hi"; then two label blocks "x y \"label\" colour"
# (no job done, jobs not done).  Variables: figtitle, subtitle, subtitle2, xlabel,
# ylabel, policies, colours (word lists); optional xticsdef (a
# non-numeric axis), note, notex, notey, basey, notecolour, footnote.
width = 1150
load plotdir."/common.gp"
np = words(policies)
set title fulltitle
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set autoscale xfix
set offsets graph 0.04, graph 0.04, graph 0.08, 0
if (exists("xticsdef")) { eval("set xtics ".xticsdef) }
# The note goes beside the key, outside the data (it would cross the
# lines near the arrow), a line each for who, the change, what it is
# against and how: "WHO:", "-X % ± H", "against BASE", "(paired)".
if (strlen(note) > 0) {
	set arrow 1 from notex, basey to notex, notey head filled size graph 0.012, 20 \
	    lc rgb notecolour lw 1.5 front
	k = strstrt(note, ": ")
	notetext = k > 0 ? note[1:k]."\n".note[k+2:] : note
	k = strstrt(notetext, " against ")
	if (k > 0) { notetext = notetext[1:k-1]."\n".notetext[k+1:] }
	k = strstrt(notetext, " (")
	if (k > 0) { notetext = notetext[1:k-1]."\n".notetext[k+1:] }
	set label 1 notetext at graph 1.03, graph 0.5 left textcolor rgb notecolour \
	    font ",12" front
}
plot for [i = 1:np] datafile index (i - 1) using 1:3:4 with filledcurves \
         fs transparent solid 0.18 noborder lc rgb word(colours, i), \
     for [i = 1:np] datafile index (i - 1) using 1:2 with linespoints \
         lw 2 pt 7 ps 0.9 lc rgb word(colours, i) title word(policies, i), \
     datafile index np using 1:2:3:4 with labels rotate by 90 left offset 0, 0.5 \
         textcolor rgb variable font ",11", \
     datafile index (np + 1) using 1:2:3:4 with labels offset 0, 1.1 \
         textcolor rgb variable font ",11"
