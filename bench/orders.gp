# orders.gp - cost per order for each allocator (allocate N blocks, then
# free them), median with the min-max range of the repetitions.
# Called by bench/report.py with data, out and t1..t5 (series titles) set.
set terminal pngcairo size 960,600 font "sans,10"
set output out
set termoption noenhanced
set datafile missing "?"
set title "Allocate N blocks, then free them: time per alloc+free pair"
set xlabel "order (block of 4 KiB << order)"
set ylabel "ns per pair (log scale)"
set logscale y
set grid ytics mytics xtics
set xtics 1
set key outside right top
set xrange [-0.5:15.5]
plot data using 1:2:3:4 with yerrorlines lw 2 pt 7 title t1, \
     data using 1:5:6:7 with yerrorlines lw 2 pt 5 dt 2 title t2, \
     data using 1:8:9:10 with yerrorlines lw 2 pt 9 title t3, \
     data using 1:11:12:13 with yerrorlines lw 2 pt 11 title t4, \
     data using 1:14:15:16 with yerrorlines lw 2 pt 13 title t5
