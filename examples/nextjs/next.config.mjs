/** @type {import('next').NextConfig} */
const nextConfig = {
  // The example is built in CI with no secrets: nothing here reads the environment at build time.
  poweredByHeader: false,
};

export default nextConfig;
