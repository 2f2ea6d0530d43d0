/**
 * @module kg/extract/vocabulary
 * Word lists of the rule-based extractor: tools, file extensions, organisation suffixes,
 * honorifics and the stop-list of capitalised words that are not names. Lower-case throughout.
 */

const words = (s: string): Set<string> => new Set(s.trim().split(/\s+/));

/**
 * Tools, languages, services and libraries recognised in any case ("pnpm", "Postgres").
 * Multi-word tools are joined with `-` here and matched on their first word plus the next.
 */
export const TOOLS = words(`
typescript javascript python golang kotlin scala erlang clojure ocaml php perl lua zig fortran cobol c++ c# f# node.js
nodejs deno npm pnpm npx pipenv conda rustup rustc gradle webpack vite rollup esbuild turbopack tsc tsx eslint vitest
pytest cypress playwright puppeteer selenium reactjs vue vuejs svelte sveltekit next.js nextjs nuxt django laravel
symfony nestjs hono koa fastify graphql grpc postgres postgresql mysql mariadb sqlite sqlite3 mongodb mongo redis
memcached elasticsearch opensearch rabbitmq clickhouse dynamodb firestore firebase supabase prisma typeorm sequelize
knex docker podman kubernetes k8s terraform pulumi ansible nginx vercel netlify heroku cloudflare aws gcp s3 ec2
github gitlab bitbucket jira figma vscode vim neovim emacs intellij webstorm xcode git svn zsh powershell tmux openai
chatgpt gpt-4 gpt-4o ollama langchain pytorch tensorflow numpy scikit-learn jupyter tailwindcss scss turborepo lerna
zod trpc axios lodash jquery htmx tauri datadog grafana kibana circleci bazel cmake llvm gcc wasm webassembly onnx
onnxruntime sqlite-vec better-sqlite3 minisearch mcp strapi twilio sendgrid auth0 okta keycloak openapi chromadb
qdrant weaviate pgvector faiss huggingface nltk vllm llamacpp copilot linux ubuntu debian macos wsl
`);

/**
 * Tools whose name is also a common word or a first name: recognised only when capitalised
 * mid-sentence, in backticks, or as the object of a "uses / switched to" rule.
 */
export const AMBIGUOUS_TOOLS = words(`
go rust swift ruby dart julia crystal express rails spring remix astro bun poetry cargo parcel babel drizzle linear
notion fish make lambda apache pandas bootstrap less elm nix chrome firefox safari excel cursor windows expo electron
flutter llama helm sentry jest mocha react angular prettier slack discord bash swagger postman yarn pip maven kafka
cassandra azure gatsby flask gemini storybook tailwind sass jenkins prometheus mercurial homebrew stripe pinecone
transformers clang elixir haskell java anthropic caddy claude mistral spacy codex
`);

/** Extensions that make a token a file path (`src/kg/index.ts`, `package.json`). */
export const FILE_EXTENSIONS = words(`
ts tsx mts cts js jsx mjs cjs json jsonl md mdx py pyi rs go java kt kts rb php c h cc cpp hpp cs swift m mm scala ex
exs erl hs ml clj sql yaml yml toml ini cfg conf env sh bash zsh fish ps1 bat css scss sass less html htm vue svelte
astro xml proto graphql gql lock txt csv tsv ipynb dockerfile tf tfvars gradle lua r dart zig nim sol wasm heex eex
leex svg png jpg jpeg gif ico webp pdf rst adoc prisma plist service desktop
`);

/** Files known by their bare name. */
export const FILE_NAMES = words(`
dockerfile makefile procfile gemfile rakefile jenkinsfile vagrantfile codeowners .env .gitignore .npmrc .nvmrc
.editorconfig .dockerignore .prettierrc .eslintrc
`);

/** Last words that make a capitalised name an organisation ("Acme Inc", "Stanford University"). */
export const ORG_SUFFIXES = words(`
inc inc. ltd ltd. llc llp gmbh ag sa plc corp corp. corporation company co co. university college institute foundation
labs lab group agency bank ministry department school hospital studios technologies systems
`);

/** Honorifics that make the following name a person. */
export const HONORIFICS = words(`dr dr. mr mr. mrs mrs. ms ms. mx mx. prof prof. sir dame`);

/**
 * Capitalised words that are never (the start of) a name: sentence starters, pronouns,
 * greetings, days, months, and labels that look like `Name:` speaker prefixes.
 */
export const STOP_WORDS = words(`
the a an this that these those there here it its i i'm i've i'd i'll me my mine we we're we've our ours you your yours
he she him her his hers they them their theirs who what when where why how which whose if then so and but or nor yet
for because since after before while although though also just still even maybe perhaps yes no not ok okay oh wow hey
hi hello thanks thank please sorry well great good nice cool sure right yeah yep nope dear congrats congratulations
today tomorrow yesterday tonight now later soon last next every each all some any many most much more less few both
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
october november december mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec
note notes warning error errors todo fixme example examples step steps summary update edit re subject from to date fix
hint tip tips usage output input result results status title description ps question answer q a pros cons edit caveat
important info debug trace source sources context goal goals plan problem solution reason reasons recently finally
actually honestly basically luckily unfortunately fortunately sadly hopefully anyway anyways besides meanwhile lately
currently initially usually sometimes often always never ever definitely totally really seriously literally obviously
apparently personally especially instead otherwise plus oops haha lol omg awesome amazing absolutely exactly indeed
user assistant human ai system bot model tool agent let let's lets do does did done have has had be been being was
were is are am will would can could should shall might must as at by in on of off with without about into onto over
under up down out again once only own same such than too very
`);

/**
 * Generic programming words: a backticked plain word of this list (`` `limit` ``, `` `result` ``,
 * `` `config` ``) names a parameter or a folder of any project, not an entity worth a node.
 */
export const GENERIC_CODE_WORDS = words(`
result results option options config configs main dev test tests dir dirs bin assets resources image images limit
offset timestamp reason signature intent decision decisions settings actions icon icons data value values key keys name
names type types id ids file files path paths src lib docs build dist output input error errors status state props
params param args arg default items item list index count size length text title body content message messages
response request query event events log logs debug info warn warning mode level version user users token tokens
session sessions model models field fields table tables column columns row rows url host port env cache tmp temp target
source sources module modules package packages script scripts style styles class method methods function functions
object objects array string number boolean json html css api app client server service handler handlers hook hooks
plugin plugins component components view views page pages template templates route routes schema cwd description
summary label labels flag flags filter filters callback payload context
`);

/** Chat roles: a `user:` / `assistant:` prefix names a role, not a person. */
export const ROLES = words(`user assistant human ai system bot model tool`);
