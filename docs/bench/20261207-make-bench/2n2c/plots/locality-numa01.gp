set terminal pngcairo size 900,500 noenhanced
set output "/work/main/results/20261207-230050-649ed9a/2n2c/locality-numa01.png"
set datafile missing 'NaN'
set title "numa01: pages on the node of the CPU (mean of threads and repeats)"
set xlabel 'time (s)'
set ylabel 'local fraction'
set yrange [0:1.05]
set key bottom right
set grid
plot "locality-numa01-off.dat" using 1:2 with linespoints title "off", "locality-numa01-mainline.dat" using 1:2 with linespoints title "mainline", "locality-numa01-numacore.dat" using 1:2 with linespoints title "numacore", "locality-numa01-bind.dat" using 1:2 with linespoints title "bind"
