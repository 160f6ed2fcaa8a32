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
import { barLabels } from './style.js';

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
  barLabels,
);

/** One colour per run (Okabe & Ito's colour-blind-safe palette), wirespeed's blue first. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#999999', '#F0E442'];

export { Chart };
