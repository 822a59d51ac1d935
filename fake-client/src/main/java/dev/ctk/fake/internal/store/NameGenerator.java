package dev.ctk.fake.internal.store;

import java.util.Random;
import java.util.UUID;

/**
 * Random parts of new objects: the 5-character {@code generateName} suffix (kube's alphabet without vowels and
 * look-alike characters, so no words or ambiguous names appear) and {@code metadata.uid}.
 *
 * <p>Seedable: two clusters built with the same seed produce the same sequence of generated names, and the same
 * sequence of uids (names and uids come from separate sources, so creating an object with a fixed name does not
 * shift the generated names).
 * Not thread-safe on its own; the store calls it under its write lock.
 */
public final class NameGenerator {

  /** The characters kube-apiserver draws {@code generateName} suffixes from. */
  public static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  /** Length of a generated suffix. */
  public static final int SUFFIX_LENGTH = 5;
  /** kube-apiserver truncates the prefix so that prefix + suffix fit a 63-character name. */
  private static final int MAX_PREFIX = 63 - SUFFIX_LENGTH;

  private final Random random;
  private final Random uids;

  /**
   * Creates a generator.
   *
   * @param seed a seed for deterministic output, or {@code null} for a random one
   */
  public NameGenerator(Long seed) {
    this.random = seed == null ? new Random() : new Random(seed);
    this.uids = seed == null ? new Random() : new Random(~seed);
  }

  /** {@code prefix} (truncated to 58 characters) followed by 5 random characters from {@link #ALPHABET}. */
  public String generate(String prefix) {
    String base = prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix;
    StringBuilder name = new StringBuilder(base);
    for (int i = 0; i < SUFFIX_LENGTH; i++) {
      name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return name.toString();
  }

  /** A version 4 UUID drawn from this generator's random source. */
  public String uid() {
    long most = (uids.nextLong() & ~0xF000L) | 0x4000L;
    long least = (uids.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(most, least).toString();
  }
}
