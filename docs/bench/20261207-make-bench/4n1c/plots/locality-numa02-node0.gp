set terminal pngcairo size 900,500 noenhanced
set output "/work/main/results/20261207-230050-649ed9a/4n1c/locality-numa02-node0.png"
set datafile missing 'NaN'
set title "numa02-node0: pages on the node of the CPU (mean of threads and repeats)"
set xlabel 'time (s)'
set ylabel 'local fraction'
set yrange [0:1.05]
set key bottom right
set grid
plot "locality-numa02-node0-off.dat" using 1:2 with linespoints title "off", "locality-numa02-node0-mainline.dat" using 1:2 with linespoints title "mainline", "locality-numa02-node0-numacore.dat" using 1:2 with linespoints title "numacore", "locality-numa02-node0-bind.dat" using 1:2 with linespoints title "bind"
