// Fast hashes in tests; the production default stays 12 (CONTRACT §2).
process.env.BCRYPT_COST ??= '4';
process.env.LOG_LEVEL ??= 'silent';
