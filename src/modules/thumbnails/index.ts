export { LogoFetcher } from './rendering/logo-fetcher';
export { renderShareCard } from './rendering/share-card.renderer';
