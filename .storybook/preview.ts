import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';
import { installBffStandIn } from '../stories/support/bff-stand-in.js';

// Docs pages, controls and their descriptions come from the Custom Elements Manifest.
setCustomElementsManifest(manifest);
installBffStandIn();

const preview: Preview = {
  tags: ['autodocs'],
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
    backgrounds: {
      options: {
        page: { name: 'Page', value: '#f4f5f8' },
        white: { name: 'White', value: '#ffffff' },
        dark: { name: 'Dark', value: '#090d16' },
      },
    },
  },
  initialGlobals: { backgrounds: { value: 'page' } },
};

export default preview;
