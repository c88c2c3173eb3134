// /patio (CONTRACT §17): the staff shell with the Patio selected.
import { ShellOnView } from '../Dashboard/ShellOnView';

export const PatioPage = () => <ShellOnView view="yard" />;
