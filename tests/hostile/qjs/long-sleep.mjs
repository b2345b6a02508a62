// args: --time-limit 2
// os.sleep past the time limit ends at the deadline.
import * as os from 'os';
os.sleep(1e12);
