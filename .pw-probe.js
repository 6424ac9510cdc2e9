const { chromium } = require('playwright-core');
(async () => {
  const t = Date.now();
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const p = await b.newPage();
  await p.setContent('<p>hi</p>');
  console.log(await p.textContent('p'), Date.now() - t);
  await b.close();
})();
