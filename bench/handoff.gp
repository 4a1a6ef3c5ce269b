# handoff.gp - memblock_free_all() time against simulated RAM size, median
# with the min-max range, and the 20 ms target at 64 GiB.
# Called by bench/report.py with data, out and t1, t2 (series titles) set.
set terminal pngcairo size 800,560 font "sans,10"
set output out
set termoption noenhanced
set datafile missing "?"
set title "Hand-off: memblock_free_all() time against RAM size"
set xlabel "simulated RAM, GiB (log scale)"
set ylabel "ms"
set logscale x 2
set grid
set key left top
set xrange [0.7:90]
set yrange [0:*]
set arrow from 64, graph 0 to 64, graph 1 nohead dt 3 lc rgb "gray"
plot data using 1:2:3:4 with yerrorlines lw 2 pt 7 title t1, \
     data using 1:5:6:7 with yerrorlines lw 2 pt 5 dt 2 title t2, \
     20 with lines dt 2 lc rgb "red" title "target: 20 ms at 64 GiB"
