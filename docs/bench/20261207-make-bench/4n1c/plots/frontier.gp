set terminal pngcairo size 1800,900 noenhanced
set output "/work/main/results/20261207-230050-649ed9a/4n1c/frontier.png"
set datafile missing 'NaN'
set multiplot layout 2,3 title 'cost against misplacement per policy (median, min-max): bottom-left is better and cheaper'
set title "numa01"
set xlabel 'remote page-seconds (thousands)'
set ylabel 'PTE updates + hinting faults (thousands)'
set xrange [0:*]
set yrange [0:*]
set grid
set key off
set offsets graph 0.05, graph 0.2, graph 0.1, graph 0.05
plot "frontier-numa01.dat" using ($3/1e3):($4/1e3):($5/1e3):($6/1e3):($7/1e3):($8/1e3):2 with xyerrorbars lc variable pt 7 ps 1.5, '' using ($3/1e3):($4/1e3):1 with labels offset char 1,char 0.8 left
set title "numa02-node0"
set xlabel 'remote page-seconds (thousands)'
set ylabel 'PTE updates + hinting faults (thousands)'
set xrange [0:*]
set yrange [0:*]
set grid
set key off
set offsets graph 0.05, graph 0.2, graph 0.1, graph 0.05
plot "frontier-numa02-node0.dat" using ($3/1e3):($4/1e3):($5/1e3):($6/1e3):($7/1e3):($8/1e3):2 with xyerrorbars lc variable pt 7 ps 1.5, '' using ($3/1e3):($4/1e3):1 with labels offset char 1,char 0.8 left
set title "numa02-own"
set xlabel 'remote page-seconds (thousands)'
set ylabel 'PTE updates + hinting faults (thousands)'
set xrange [0:*]
set yrange [0:*]
set grid
set key off
set offsets graph 0.05, graph 0.2, graph 0.1, graph 0.05
plot "frontier-numa02-own.dat" using ($3/1e3):($4/1e3):($5/1e3):($6/1e3):($7/1e3):($8/1e3):2 with xyerrorbars lc variable pt 7 ps 1.5, '' using ($3/1e3):($4/1e3):1 with labels offset char 1,char 0.8 left
set title "numa01-wide-node0"
set xlabel 'remote page-seconds (thousands)'
set ylabel 'PTE updates + hinting faults (thousands)'
set xrange [0:*]
set yrange [0:*]
set grid
set key off
set offsets graph 0.05, graph 0.2, graph 0.1, graph 0.05
plot "frontier-numa01-wide-node0.dat" using ($3/1e3):($4/1e3):($5/1e3):($6/1e3):($7/1e3):($8/1e3):2 with xyerrorbars lc variable pt 7 ps 1.5, '' using ($3/1e3):($4/1e3):1 with labels offset char 1,char 0.8 left
unset multiplot
