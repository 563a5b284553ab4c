set terminal pngcairo size 900,500 noenhanced
set output "/work/main/results/20261207-234143-4bece54/2n2c/runtime.png"
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
plot "runtime.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore", '' using 11:12:13 title "numacore/NO_NUMA_EARLY_HOME", '' using 14:15:16 title "numacore/NO_NUMA_SCAN_CATCH_UP", '' using 17:18:19 title "numacore/NO_NUMA_SCAN_CHUNK", '' using 20:21:22 title "numacore/NO_NUMA_SKIP_OTHERS"
