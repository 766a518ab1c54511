# common.gp - terminal, font and style shared by every hetsim figure, and
# the one palette of their colours (below: $palette, $colour_of).
# hetsim plot sets: fmt ('png' or 'svg'), outfile, figtitle, and
# optionally subtitle, subtitle2 (the title's second and third lines),
# footnote (a line at the foot of the figure) and footnote2 (a line
# under it); a figure script may set
# width and height (pixels) before loading this file.  Keys go outside
# the plot area, with no box: a key never hides a line or a bar.
if (!exists("width")) width = 1000
if (!exists("height")) height = 600
if (fmt eq "svg") {
	set terminal svg size width, height dynamic noenhanced font "sans,14" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size width, height noenhanced font "sans,13" background "white"
	} else {
		set terminal png size width, height noenhanced background "#ffffff"
	}
}
set output outfile
set encoding utf8
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6 textcolor rgb "#222222"
set grid ytics lc rgb "#dddddd" lw 1 dt solid
set key noautotitle nobox noopaque samplen 2 spacing 1.1 outside right top vertical
set title font ",15"
set datafile separator whitespace
if (!exists("note")) note = ""
if (!exists("footnote")) footnote = ""
if (!exists("footnote2")) footnote2 = ""
# a second line of footnote goes under the first (a label of two lines
# would put its second below the canvas, where gnuplot drops it)
if (strlen(footnote) > 0) {
	set label 99 footnote at screen 0.01, screen (strlen(footnote2) > 0 ? 0.02 + 17.0 / height : 0.02) \
	    left font ",11" textcolor rgb "#a00000" front
	if (strlen(footnote2) > 0) {
		set label 98 footnote2 at screen 0.01, screen 0.02 left font ",11" \
		    textcolor rgb "#a00000" front
	}
	set bmargin (strlen(footnote2) > 0 ? 6.5 : 5)
}
fulltitle = figtitle.(exists("subtitle") ? "\n".subtitle : "")
if (exists("subtitle2")) { fulltitle = fulltitle."\n".subtitle2 }

# ---- the palette: one for every figure ------------------------------------
# Twenty colours, one per slot.  Slots 1-8 are Okabe and Ito's colour set
# for colour-blind readers ("Color Universal Design", Okabe & Ito 2008,
# https://jfly.uni-koeln.de/color/).  Slots 9-20 come from Paul Tol's
# schemes (https://personal.sron.nl/~pault/, "Colour schemes and
# templates": muted, light, dark, high- and medium-contrast, bright),
# taken one at a time, each the colour of those schemes whose smallest
# CIEDE2000 difference to the slots before it is largest, under normal
# vision and under simulated protanopia and deuteranopia (Machado,
# Oliveira & Fernandes 2009), leaving out Tol's greys and pale tints
# (too close to the background).  The smallest difference of any two of
# the twenty is then 7.1 (bright and muted purple, slots 18 and 20): no
# set of twenty stays as far apart as the first eight, so a figure of
# more than eight names names each one beside it (an axis label or the
# key), never by colour alone.  Black (slot 8) goes to log-replay, which
# no bar chart shows: a black bar would hide its whiskers.
# Columns: slot, colour, its name in its set.  Read by hetsim (plot/
# palette.c: the figures' colours) as well as below.
$palette << EOD
1 #0072B2 Okabe-Ito blue
2 #D55E00 Okabe-Ito vermillion
3 #009E73 Okabe-Ito bluish-green
4 #CC79A7 Okabe-Ito reddish-purple
5 #E69F00 Okabe-Ito orange
6 #56B4E9 Okabe-Ito sky-blue
7 #F0E442 Okabe-Ito yellow
8 #000000 Okabe-Ito black
9 #882255 Tol-muted wine
10 #FFAABB Tol-light pink
11 #225522 Tol-dark green
12 #004488 Tol-high-contrast blue
13 #99DDFF Tol-light light-cyan
14 #994455 Tol-medium-contrast dark-red
15 #EE6677 Tol-bright red
16 #44BB99 Tol-light mint
17 #DDCC77 Tol-muted sand
18 #AA3377 Tol-bright purple
19 #666633 Tol-dark yellow
20 #AA4499 Tol-muted purple
EOD
# Each name's slot: a policy (hetsim policies), an instance of one in the
# paper's scenarios, a job type (gantt) or a node label (utilisation).
# The registered policies have a slot each; an instance shares the slot
# of a policy that no figure of its study shows.  How a figure's names
# get their colours (plot/palette.c, plot/README.md): each name in this
# table takes its slot, in table order, unless a name above it in the
# figure took it; the others (names not in the table, and those whose
# slot was taken) take the first free slot, table names first, then the
# rest in byte order.  So the same name has the same colour in every
# figure of the same names (whatever their order), a registered policy
# the same one in every figure, and the names of a figure are distinct
# up to twenty; beyond twenty the colours repeat.
$colour_of << EOD
# registered policies
spark-standalone 1
label-dual 2
fifo 3
yarn 4
clustering 5
fgd 6
easy 7
log-replay 8
packing 9
srtf 10
tiresias 11
bestfit 12
tetris 13
conservative 14
random 15
drf 16
gavel 18
dotprod 19
sjf 20
# the paper's instances (scenarios/paper-baselines-*.yaml, paper-ablation-*.yaml)
standalone-asked 6
yarn-gpu 5
standalone-gpu 12
yarn-stock-nm 9
yarn-gpu-stock-nm 11
dominant-only 14
gang-only 16
labels-only 18
none 15
# job types (gantt)
wordcount 5
mnist_spark 3
angel 4
synthetic 6
trace 12
spark-app 9
# node labels (utilisation)
cpu 1
gpu 3
EOD
# The palette as gnuplot's line types 1-20, for a figure drawn by hand.
do for [k = 1:|$palette|] { set linetype k lc rgb word($palette[k], 2) lw 1 }
