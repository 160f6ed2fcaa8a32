// Chart.js is tree-shaken: every chart type and part the dashboard draws is registered here once.
import { BoxPlotController, BoxAndWiskers } from '@sgratzl/chartjs-chart-boxplot';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';

Chart.register(
  BarController,
  BarElement,
  BarWithErrorBarsController,
  BarWithErrorBar,
  BoxPlotController,
  BoxAndWiskers,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  Legend,
  Tooltip,
);

/** One colour per run, wirespeed's blue first. */
export const PALETTE = ['#1f6feb', '#d9822b', '#2da44e', '#8250df', '#cf222e', '#57606a', '#bf8700', '#0a7a7a'];

export { Chart };
