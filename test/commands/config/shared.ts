// Each config test gets a config directory of its own (config files are the state under test).
import { tempDir } from '../../helpers/cli.js';

export const freshConfig = () => ({ BANKCTL_CONFIG_DIR: tempDir() });
