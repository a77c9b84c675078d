import { html, LitElement, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AdminApi } from '../../api.js';
import type { Lang } from '../../i18n.js';
import { errorText, recordStyles, type Tone } from '../records.js';

export interface SectionNotice {
  tone: Tone;
  text: string;
}

/**
 * What each part of the settings page shares: the API and the language it is given, and its
 * actions run one at a time, their outcome said in the section's live region.
 */
export class SettingsSection extends LitElement {
  static override styles = recordStyles;
  static override properties: PropertyDeclarations = {
    api: { attribute: false },
    lang: {},
    notice: { state: true },
    busy: { state: true },
    failure: { state: true },
  };

  api!: AdminApi;
  override lang: Lang = 'en';
  notice: SectionNotice | undefined;
  /** The action under way, if any. */
  busy = '';
  /** The last failed action and its error, whose fields' messages the form shows. */
  failure: { action: string; error: unknown } | undefined;

  protected get language(): Lang {
    return this.lang;
  }

  /** The error of `action`'s last failure, if that was the last thing that happened. */
  protected errorOf(action: string): unknown {
    return this.failure?.action === action ? this.failure.error : undefined;
  }

  protected async act(action: string, run: () => Promise<SectionNotice | undefined>): Promise<void> {
    if (this.busy) return;
    this.busy = action;
    this.failure = undefined;
    try {
      this.notice = await run();
    } catch (error) {
      this.failure = { action, error };
      this.notice = { tone: 'error', text: errorText(error) };
    } finally {
      this.busy = '';
    }
  }

  protected renderNotice(): TemplateResult {
    const notice = this.notice;
    return html`<div role="status" aria-live="polite">${notice ? html`<p class="notice" data-tone=${notice.tone}>${notice.text}</p>` : nothing}</div>`;
  }
}
