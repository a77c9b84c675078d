import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { validateFa3, validateUpo } from '../../../src/service/ksef/schemas.js';
import { runXmllint } from '../../../src/service/ksef/xmllint.js';
import { describeOutsidePostgresPass } from '../../helpers/passes.js';
import { exampleInvoice } from './double-support.js';

const run = promisify(execFile);

/** The schema checks run libxml2 on one long-lived thread, for every caller of the process. */
describeOutsidePostgresPass('xmllint on its thread', () => {
  it('gives each of many documents asked at once its own verdict', async () => {
    const valid = exampleInvoice('5265877635', '2026-01-02', '1');
    const invalid = valid.replace('<P_1>', '<Oops>x</Oops><P_1>');
    const asked = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? invalid : valid));
    const verdicts = await Promise.all([...asked.map((xml) => validateFa3(xml)), validateUpo('<x/>')]);
    expect(verdicts.slice(0, -1).map((verdict) => verdict.valid)).toEqual(asked.map((xml) => xml === valid));
    for (const verdict of verdicts.slice(0, -1).filter((each) => !each.valid)) {
      expect(verdict.errors).toEqual([expect.stringMatching(/^line \d+: Schemas validity error : Element '\{[^}]+\}Oops': This element is not expected/)]);
    }
    expect(verdicts.at(-1)).toEqual({ valid: false, errors: ["line 1: Schemas validity error : Element 'x': No matching global declaration available for the validation root."] });
  });

  it('answers a run that fails with its exit code, and serves the next one', async () => {
    const failed = await runXmllint([{ fileName: 'a.xml', contents: '<a/>' }], ['--schema', 'missing.xsd', '--noout', 'a.xml']);
    expect(failed.exitCode).not.toBe(0);
    expect(failed.stderr).toContain('missing.xsd');
    expect(await runXmllint([{ fileName: 'a.xml', contents: '<a/>' }], ['--noout', 'a.xml'])).toEqual({ exitCode: 0, stderr: '' });
  });

  it('keeps no process alive once its runs are answered', async () => {
    const script = `import { validateFa3 } from './src/service/ksef/schemas.ts';
const verdict = await validateFa3('<x/>');
console.log(JSON.stringify(verdict.valid));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('false');
  }, 60_000);
});
