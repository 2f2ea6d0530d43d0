/**
 * @module test/helpers/secrets-corpus
 * The secrets test corpus: lines holding a credential in a real format (and where it is usually
 * found: env files, configs, code, shell, prose, URLs, headers), and look-alike lines that hold
 * none (placeholders, references, regex literals, variable names, hashes, ids, prose).
 *
 * Every credential is generated at run time from a seeded generator (obviously fake, but of the
 * right alphabet, length and randomness), and every prefix is split in the source, so that this
 * file holds no secret a scanner would flag. `SECRET_LINES` must each be redacted exactly (the
 * secret replaced by `[REDACTED:<kind>]`, every other character kept); `CLEAN_LINES` must come
 * out unchanged.
 */

/** A line holding one secret. */
export interface SecretLine {
  /** The expected `[REDACTED:<kind>]`. */
  kind: string;
  /** A short name for the test. */
  name: string;
  /** The whole line. */
  text: string;
  /** The exact substring that must be replaced. */
  secret: string;
}

function generator(seed: number): (alphabet: string, n: number) => string {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

const r = generator(20261201);
const LOW = 'abcdefghijklmnopqrstuvwxyz';
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIG = '0123456789';
const AN = LOW + UP + DIG;
const HEX = DIG + 'abcdef';
const B64 = AN + '+/';
const URLSAFE = AN + '_-';
const B32 = UP + '234567';
/** Joins parts so that no prefix appears whole in this file. */
const j = (...parts: string[]) => parts.join('');

function discordBotToken(): string {
  const id = j('1', r(DIG, 17));
  const first = Buffer.from(id).toString('base64url');
  return `${first}.${r(URLSAFE, 6)}.${r(URLSAFE, 38)}`;
}

function pem(type: string): string {
  const lines = Array.from({ length: 6 }, () => r(B64, 64));
  return [
    j('-----BEGIN ', type, ' PRIVATE', ' KEY-----'),
    ...lines,
    `${r(B64, 20)}==`,
    j('-----END ', type, ' PRIVATE', ' KEY-----'),
  ].join('\n');
}

function jwt(): string {
  const head = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const body = Buffer.from(`{"sub":"${r(DIG, 10)}","name":"${r(LOW, 8)}","iat":${r(DIG, 10)}}`).toString('base64url');
  return `${head}.${body}.${r(URLSAFE, 43)}`;
}

const t = {
  anthropic: j('sk-', 'ant-api03-', r(URLSAFE, 93), 'AA'),
  openaiProject: j('sk-', 'proj-', r(URLSAFE, 64), 'T3Blbk', 'FJ', r(URLSAFE, 64)),
  openaiLegacy: j('sk-', r(AN, 20), 'T3Blbk', 'FJ', r(AN, 20)),
  deepseek: j('sk-', r(HEX, 32)),
  githubClassic: j('gh', 'p_', r(AN, 36)),
  githubOauth: j('gh', 'o_', r(AN, 36)),
  githubFine: j('github', '_pat_', '11', r(UP + DIG, 20), '_', r(AN, 59)),
  gitlab: j('gl', 'pat-', r(URLSAFE, 20)),
  slackBot: j('xo', 'xb-', r(DIG, 12), '-', r(DIG, 13), '-', r(AN, 24)),
  slackUser: j('xo', 'xp-', r(DIG, 12), '-', r(DIG, 12), '-', r(DIG, 13), '-', r(HEX, 32)),
  slackWebhook: j('https://hooks', '.slack.com/services/T', r(UP + DIG, 10), '/B', r(UP + DIG, 10), '/', r(AN, 24)),
  stripeSecret: j('sk', '_live_', r(AN, 99)),
  stripeRestricted: j('rk', '_live_', r(AN, 99)),
  stripeWebhook: j('wh', 'sec_', r(AN, 32)),
  google: j('AI', 'za', 'Sy', r(URLSAFE, 33)),
  googleOauth: j('GOC', 'SPX-', r(URLSAFE, 28)),
  aws: j('AK', 'IA', r(B32, 16)),
  awsSecret: r(B64, 40),
  npm: j('np', 'm_', r(AN, 36)),
  pypi: j('py', 'pi-', 'AgEIcHlwaS5vcmc', r(URLSAFE, 160)),
  sendgrid: j('S', 'G.', r(URLSAFE, 22), '.', r(URLSAFE, 43)),
  mailgun: j('ke', 'y-', r(HEX, 32)),
  twilioKey: j('S', 'K', r(HEX, 32)),
  twilioAccount: j('A', 'C', r(HEX, 32)),
  twilioAuth: r(HEX, 32),
  discordBot: discordBotToken(),
  discordWebhook: j('https://discord', '.com/api/webhooks/', r(DIG, 18), '/', r(URLSAFE, 68)),
  shopifyAccess: j('sh', 'pat_', r(HEX, 32)),
  shopifyShared: j('sh', 'pss_', r(HEX, 32)),
  shopifyCustom: j('sh', 'pca_', r(HEX, 32)),
  huggingface: j('h', 'f_', r(LOW + UP, 34)),
  herokuV2: j('HR', 'KU-AA', r(URLSAFE, 58)),
  herokuLegacy: `${r(HEX, 8)}-${r(HEX, 4)}-4${r(HEX, 3)}-a${r(HEX, 3)}-${r(HEX, 12)}`,
  digitalocean: j('do', 'p_v1_', r(HEX, 64)),
  azureClientSecret: j(r(AN, 3), '8', 'Q~', r(AN + '_~.-', 34)),
  azureStorage: `${r(B64, 86)}==`,
  telegram: j(r(DIG, 10), ':AA', r(URLSAFE, 33)),
  squareAccess: j('sq', '0atp-', r(URLSAFE, 22)),
  squareSecret: j('sq', '0csp-', r(URLSAFE, 43)),
  squareProd: j('EA', 'AA', r(URLSAFE, 60)),
  databricks: j('da', 'pi', r(HEX, 32)),
  doppler: j('dp', '.pt.', r(AN, 43)),
  linear: j('li', 'n_api_', r(AN, 40)),
  postman: j('PM', 'AK-', r(HEX, 24), '-', r(HEX, 34)),
  groq: j('gs', 'k_', r(AN, 52)),
  vault: j('hv', 's.', r(URLSAFE, 90)),
  docker: j('dc', 'kr_pat_', r(URLSAFE, 27)),
  age: j('AGE-', 'SECRET-KEY-1', r('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)),
  grafana: j('gl', 'sa_', r(AN, 32), '_', r(HEX, 8)),
  jwt: jwt(),
  genericSecret: r(AN, 32),
  genericHex: r(HEX, 40),
  password: j(r(UP, 1), r(LOW, 5), '!', r(DIG, 3), r(LOW, 3)),
  dbPassword: j(r(LOW, 4), r(DIG, 2), r(UP, 2), r(LOW, 4)),
  basic: Buffer.from(`deploy:${r(AN, 16)}`).toString('base64'),
  bearer: r(URLSAFE, 40),
  rsa: pem('RSA'),
  openssh: pem('OPENSSH'),
};

const line = (kind: string, name: string, text: string, secret: string): SecretLine => ({ kind, name, text, secret });

/** Lines with exactly one secret each (45+ formats and contexts). */
export const SECRET_LINES: readonly SecretLine[] = [
  line('anthropic', 'anthropic key in .env', `ANTHROPIC_API_KEY=${t.anthropic}`, t.anthropic),
  line('openai', 'openai project key in prose', `the key ${t.openaiProject} is the team's`, t.openaiProject),
  line('openai', 'openai legacy key in code', `openai.api_key = "${t.openaiLegacy}"`, t.openaiLegacy),
  line('openai', 'deepseek-style sk- key in yaml', `  api_key: ${t.deepseek}`, t.deepseek),
  line('github', 'github classic token in shell', `export GITHUB_TOKEN=${t.githubClassic}`, t.githubClassic),
  line('github', 'github oauth token in json', `{"oauth": "${t.githubOauth}"}`, t.githubOauth),
  line(
    'github',
    'github fine-grained token in a git URL',
    `git clone https://x-access-token:${t.githubFine}@github.com/acme/api.git`,
    t.githubFine,
  ),
  line(
    'gitlab',
    'gitlab token in a header',
    `curl --header "PRIVATE-TOKEN: ${t.gitlab}" https://gitlab.example/api/v4/projects`,
    t.gitlab,
  ),
  line('slack', 'slack bot token', `SLACK_BOT=${t.slackBot}`, t.slackBot),
  line('slack', 'slack user token in prose', `use ${t.slackUser} for the export`, t.slackUser),
  line('slack', 'slack webhook URL', `curl -X POST ${t.slackWebhook} -d @msg.json`, t.slackWebhook),
  line('stripe', 'stripe secret key', `Stripe::api_key = '${t.stripeSecret}'`, t.stripeSecret),
  line('stripe', 'stripe restricted key', `STRIPE_KEY=${t.stripeRestricted}`, t.stripeRestricted),
  line('stripe', 'stripe webhook secret', `endpoint secret ${t.stripeWebhook}`, t.stripeWebhook),
  line(
    'google',
    'google API key in a URL',
    `https://maps.googleapis.com/maps/api/geocode/json?address=x&key=${t.google}`,
    t.google,
  ),
  line('google', 'google OAuth client secret', `"client_secret":"${t.googleOauth}"`, t.googleOauth),
  line('aws-access-key', 'aws access key id', `aws_access_key_id = ${t.aws}`, t.aws),
  line('aws-secret-key', 'aws secret access key', `aws_secret_access_key = ${t.awsSecret}`, t.awsSecret),
  line('npm', 'npm token in .npmrc', `//registry.npmjs.org/:_authToken=${t.npm}`, t.npm),
  line('pypi', 'pypi token in .pypirc', `password = ${t.pypi}`, t.pypi),
  line('sendgrid', 'sendgrid key in code', `sg.setApiKey('${t.sendgrid}');`, t.sendgrid),
  line('mailgun', 'mailgun key in prose', `mailgun says ${t.mailgun} is active`, t.mailgun),
  line('twilio', 'twilio API key SID', `TWILIO_API_KEY_SID: ${t.twilioKey}`, t.twilioKey),
  line('twilio', 'twilio account SID', `client = Client("${t.twilioAccount}", token)`, t.twilioAccount),
  line('twilio', 'twilio auth token by keyword', `TWILIO_AUTH_TOKEN=${t.twilioAuth}`, t.twilioAuth),
  line('discord', 'discord bot token', `client.login("${t.discordBot}")`, t.discordBot),
  line('discord', 'discord webhook URL', `webhook: ${t.discordWebhook}`, t.discordWebhook),
  line('shopify', 'shopify access token', `X-Shopify-Access-Token: ${t.shopifyAccess}`, t.shopifyAccess),
  line('shopify', 'shopify shared secret', `SHOPIFY_SHARED=${t.shopifyShared}`, t.shopifyShared),
  line('shopify', 'shopify custom app token', `token ${t.shopifyCustom}`, t.shopifyCustom),
  line('huggingface', 'hugging face token', `huggingface-cli login --token ${t.huggingface}`, t.huggingface),
  line('heroku', 'heroku v2 key', `HEROKU=${t.herokuV2}`, t.herokuV2),
  line('heroku', 'heroku legacy key by keyword', `HEROKU_API_KEY="${t.herokuLegacy}"`, t.herokuLegacy),
  line('digitalocean', 'digitalocean token', `doctl auth init -t ${t.digitalocean}`, t.digitalocean),
  line('azure', 'azure AD client secret', `AZURE_CLIENT_SECRET=${t.azureClientSecret}`, t.azureClientSecret),
  line(
    'azure',
    'azure storage account key',
    `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${t.azureStorage};EndpointSuffix=core.windows.net`,
    t.azureStorage,
  ),
  line('telegram', 'telegram bot token', `bot = Bot("${t.telegram}")`, t.telegram),
  line('square', 'square access token', `SQUARE=${t.squareAccess}`, t.squareAccess),
  line('square', 'square OAuth secret', `secret is ${t.squareSecret}`, t.squareSecret),
  line('square', 'square production token', `Authorization: Bearer ${t.squareProd}`, t.squareProd),
  line('databricks', 'databricks token', `DATABRICKS_HOST=x DATABRICKS=${t.databricks}`, t.databricks),
  line('doppler', 'doppler token', `doppler configure set token ${t.doppler}`, t.doppler),
  line('linear', 'linear key', `LINEAR=${t.linear}`, t.linear),
  line('postman', 'postman key', `x-api-key: ${t.postman}`, t.postman),
  line('groq', 'groq key', `GROQ=${t.groq}`, t.groq),
  line('vault', 'vault token', `VAULT_TOKEN=${t.vault}`, t.vault),
  line('docker', 'docker hub token', `echo ${t.docker} | docker login -u acme --password-stdin`, t.docker),
  line('age', 'age secret key', `# key: ${t.age}`, t.age),
  line('grafana', 'grafana service account token', `GF=${t.grafana}`, t.grafana),
  line('jwt', 'JWT in a cookie', `Cookie: session=${t.jwt}; Path=/`, t.jwt),
  line('secret', 'generic client secret in JSON', `{"client_secret": "${t.genericSecret}"}`, t.genericSecret),
  line('secret', 'generic api key assignment', `API_KEY=${t.genericHex}`, t.genericHex),
  line(
    'secret',
    'generic token in a query string',
    `GET /callback?code=1&access_token=${t.genericSecret}&state=2`,
    t.genericSecret,
  ),
  line('password', 'password in .env', `DB_PASSWORD=${t.password}`, t.password),
  line('password', 'password in yaml', `  password: "${t.password}"`, t.password),
  line(
    'url-password',
    'database URL with a password',
    `DATABASE_URL=postgres://app:${t.dbPassword}@db.internal:5432/prod`,
    t.dbPassword,
  ),
  line('bearer', 'basic auth header', `-H 'Authorization: Basic ${t.basic}'`, t.basic),
  line('bearer', 'bearer token', `curl -H "Authorization: Bearer ${t.bearer}" https://api.acme.dev`, t.bearer),
  line('private-key', 'PEM RSA private key', `key:\n${t.rsa}\ndone`, t.rsa),
  line('private-key', 'PEM OpenSSH private key', `cat ~/.ssh/id_ed25519\n${t.openssh}`, t.openssh),
];

/** A 1×1 PNG, base64. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Lines that hold no secret and must stay byte-identical. */
export const CLEAN_LINES: readonly string[] = [
  // Regex literals, code and variable names (Loci's own source had these redacted).
  'const TOKEN = new RegExp(`\\\\d{4}-\\\\d{2}-\\\\d{2}|[A-Z][a-z]+`, "g");',
  'const TOKEN = /^[@\\w][\\w@./#+:-]*$/;',
  "pad_token: '[PAD]', unk_token: '[UNK]', mask_token: \"[MASK]\"",
  'const token = getToken(); const password = form.password1; if (secret == other) {}',
  'token = tokens[0]; apiKey: apiKey, password: hashedPassword, secret: clientSecret',
  'let token = Token::new(kind, span);',
  'api_key = config["api_key"]',
  'SECRET_KEY = env("SECRET_KEY")',
  'password: string | undefined; apiKey?: string; token: string;',
  'session_token: Option<String>,',
  'auth: { user, pass },',
  'auth: true',
  'password_hash = bcrypt.hash(password, 12)',
  'max_tokens: 4096, tokens: 12, tokenizer: "porter", token_count=5, TOKEN_LIMIT=4096',
  'next_token = resp["nextToken"]; page_token: "CAESBggDEAEYAQ"',
  // Placeholders and references.
  'HELIUS_API_KEY=your_key BASTION_ON_CHAIN=1 cargo run',
  'echo \'export API_KEY=your-api-key\' >> "$CLAUDE_ENV_FILE"',
  j('export GITHUB_TOKEN=', 'gh', 'p_', 'xxxxxxxxxxxx'),
  j('GITHUB_TOKEN=', 'gh', 'p_', 'x'.repeat(36)),
  j('OPENAI_API_KEY=', 'sk-', '...'),
  j('OPENAI_API_KEY=', 'sk-', '1234567890abcdef1234567890abcdef'),
  'OPENAI_API_KEY=<your-openai-key>',
  'TOKEN=${GITHUB_TOKEN}',
  'api_key: process.env.OPENAI_API_KEY',
  'password: os.environ["DB_PASSWORD"]',
  'secret = $SECRET',
  'SECRET=***',
  "password: '********'",
  "token: 'xxx'",
  'password = "password"',
  'password: changeme',
  'client_secret: "<client-secret>"',
  'NPM_TOKEN: ${{ secrets.NPM_TOKEN }}',
  '"password": ""',
  'password: null',
  'API_KEY=YOUR_API_KEY_HERE',
  'STRIPE_SECRET_KEY=sk_test_...',
  'api_key = "REPLACE_ME"',
  'ANTHROPIC_API_KEY=sk-ant-test-key',
  'secret_key_base: "test-only-secret-base-minimum-64-bytes-long-enough-for-phoenix"',
  'PWD=/Users/dev/Code/athena/bigplan',
  'OLDPWD=/home/dev',
  'api_key_path: ~/.config/acme/key.json',
  'private_key_file = "./certs/server.key"',
  'SECRET_NAME=prod/db/credentials',
  'export AWS_SECRET_ACCESS_KEY=$(aws configure get aws_secret_access_key)',
  'token: GITHUB_TOKEN',
  // URLs.
  'postgres://postgres:postgres@localhost:5432/app',
  'postgres://user:password@localhost/db',
  'expected postgres://user[:password]@host[:port]/database',
  'postgres://me:s3cret@db.example:5433/team and mysql://root:p4ssw0rd@h/db',
  'https://user:${TOKEN}@github.com/acme/api.git',
  'redis://:changeme@cache:6379',
  'https://example.com/a:b and git@github.com:org/repo.git and ssh://git@host:22/x',
  'https://user@host.com/path?x=1',
  // Headers and prose.
  'Authorization: required for all endpoints',
  'The Bearer token must be refreshed hourly.',
  'Authorization: Bearer $TOKEN',
  'Authorization: Bearer <token>',
  'Password: reset it from the settings page. Token: expired.',
  'We use sk-learn and scikit-learn; the task-list is in docs; ghp is not a token.',
  'a key-value store, the SKU list, ACK and ACME, SKIPPED, dapib, plus-us',
  // Ids, hashes, encodings.
  'commit 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed the tokenizer',
  'session 5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10 and request 0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b',
  'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '"integrity": "sha512-9NET910DNaIPngYnLLPeg+Ogzqsi9uM4mSboU5y6p8S5DzMTVEsJZrawi+BoDNUVBa2DhJqQYUFvMMzH7w9/Kw=="',
  `<img src="data:image/png;base64,${PIXEL_PNG.repeat(4)}">`,
  'at 12:34:56 the build took 1:02:03; version v1.2.3; 2025-01-02T03:04:05Z',
  'the ~Q~ marker and Q~ alone',
  j('-----BEGIN ', 'PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----'),
  j('-----BEGIN ', 'PRIVATE', ' KEY-----\n...\n-----END PRIVATE KEY-----'),
  j('-----BEGIN ', 'RSA PRIVATE', ' KEY-----\n<your key here>\n-----END RSA PRIVATE KEY-----'),
  'Bearer tokens start with eyJ... and look like eyJhbGciOi.eyJzdWIi.sig',
  // Chained assignments and encoded examples (seen in npm's own packages).
  '})(Socks5Auth || (exports.Socks5Auth = Socks5Auth = {}));',
  'authorization = base64.decodebytes(authorization).decode("ascii")',
  `  password: '${Buffer.from('not my real password').toString('base64')}',`,
  `  auth: '${Buffer.from('isaacs:not my real password').toString('base64')}',`,
];
