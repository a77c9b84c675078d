import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // The project's stories are the introduction; Storybook's own onboarding checklist is noise here.
  features: { sidebarOnboardingChecklist: false },
  async viteFinal(viteConfig) {
    // The project's Vite config builds the library; Storybook builds an app from the same sources.
    if (viteConfig.build) {
      delete viteConfig.build.lib;
      delete (viteConfig.build as Record<string, unknown>)['rolldownOptions'];
    }
    viteConfig.optimizeDeps = {
      ...viteConfig.optimizeDeps,
      // Otherwise the dev server can load Lit twice.
      include: [...(viteConfig.optimizeDeps?.include ?? []), 'lit', 'lit/directive-helpers.js'],
    };
    return viteConfig;
  },
};

export default config;
