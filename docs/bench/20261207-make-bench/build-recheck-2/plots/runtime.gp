set terminal pngcairo size 900,500 noenhanced
set output "/work/main/results/20261207-235453-34b1e76/2n2c/runtime.png"
set datafile missing 'NaN'
set title "run time per policy (median, min–max)"
set ylabel "seconds"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "runtime.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
