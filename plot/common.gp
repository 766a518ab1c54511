# common.gp - terminal, font and style shared by every hetsim figure.
# hetsim plot sets: fmt ('png' or 'svg'), outfile, figtitle, and
# optionally subtitle, subtitle2 (the title's second and third lines) and
# footnote (a line at the foot of the figure); a figure script may set
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
if (strlen(footnote) > 0) {
	set label 99 footnote at screen 0.01, screen 0.02 left font ",11" textcolor rgb "#a00000" front
	set bmargin 5
}
fulltitle = figtitle.(exists("subtitle") ? "\n".subtitle : "")
if (exists("subtitle2")) { fulltitle = fulltitle."\n".subtitle2 }
