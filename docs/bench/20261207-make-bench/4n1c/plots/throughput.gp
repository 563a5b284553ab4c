set terminal pngcairo size 900,500 noenhanced
set output "/work/main/results/20261207-230050-649ed9a/4n1c/throughput.png"
set datafile missing 'NaN'
set title "throughput per policy (median, min–max)"
set ylabel "GB/s"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "throughput.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore", '' using 11:12:13 title "bind"
