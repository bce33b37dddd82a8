/**
 * **Lazy chunk** `cart-[hash].js`, fetched when an enabled cart button first shows: creating the configuration, its
 * picture and the form POST to the merchant's cart. Neither the loader nor the configurator chunk carries it.
 */
export { postConfiguration } from './cart-request.js';
export { cartScreenshot } from './cart-screenshot.js';
export { postToCart } from './cart-form-post.js';
