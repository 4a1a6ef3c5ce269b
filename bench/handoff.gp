# handoff.gp - memblock_free_all() time against simulated RAM size, median
# with the min-max range, and the 20 ms target at 64 GiB: on sparse RAM,
# where each first touch is a host page fault, and with the touched pages
# resident beforehand, as RAM is on bare metal.
# Called by bench/report.py with data, out and t1, t2 (series titles) set.
set terminal pngcairo size 800,560 font "sans,10"
set output out
set termoption noenhanced
set datafile missing "?"
set title "Hand-off: memblock_free_all() time against RAM size"
set xlabel "simulated RAM, GiB (log scale)"
set ylabel "ms (log scale)"
set logscale x 2
set logscale y
set grid
set key right bottom
set xrange [0.7:90]
set arrow from 64, graph 0 to 64, graph 1 nohead dt 3 lc rgb "gray"
plot data using 1:2:3:4 with yerrorlines lw 2 pt 7 title t1." (sparse RAM)", \
     data using 1:5:6:7 with yerrorlines lw 2 pt 5 title t2." (sparse RAM)", \
     data using 1:8:9:10 with yerrorlines lw 2 pt 7 dt 2 title t1." (RAM present)", \
     data using 1:11:12:13 with yerrorlines lw 2 pt 5 dt 2 title t2." (RAM present)", \
     20 with lines dt 2 lc rgb "red" title "target: 20 ms at 64 GiB"
