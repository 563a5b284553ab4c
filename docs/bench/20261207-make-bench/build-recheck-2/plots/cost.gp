set terminal pngcairo size 1800,900 noenhanced
set output "/work/main/results/20261207-235453-34b1e76/2n2c/cost.png"
set datafile missing 'NaN'
set multiplot layout 2,3 title 'cost per policy (median, min–max)'
set title "PTE updates"
set ylabel "PTE updates"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "cost-numa_pte_updates.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
set title "hinting faults"
set ylabel "hinting faults"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "cost-numa_hint_faults.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
set title "pages migrated"
set ylabel "pages migrated"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "cost-numa_pages_migrated.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
set title "system CPU (s)"
set ylabel "system CPU (s)"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "cost-sys_s.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
set title "system CPU, whole machine (s)"
set ylabel "system CPU, whole machine (s)"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "cost-stat_sys_s.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
set title "longest scan pass (ms)"
set ylabel "longest scan pass (ms)"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set grid ytics
set xtics rotate by -20
set key outside top center horizontal Left reverse width 1
plot "cost-scan_max_ms.dat" using 2:3:4:xtic(1) title "off", '' using 5:6:7 title "mainline", '' using 8:9:10 title "numacore"
unset multiplot
