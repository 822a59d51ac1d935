package dev.ctk.fake.internal.common;

/**
 * How a write treats the fields a client normally cannot set.
 *
 * @param dryRun validate and compute the result but store nothing and send no event ({@code dryRun=All})
 * @param seeding a test seeds or injects the object: {@code status} is written as given even on kinds with a
 *     status subresource, {@code metadata.resourceVersion} in the body is ignored (unconditional), and
 *     a create does not fail on a resourceVersion left in the object
 */
public record WriteOptions(boolean dryRun, boolean seeding) {

  /** An ordinary API request. */
  public static final WriteOptions API = new WriteOptions(false, false);
  /** An ordinary API request with {@code dryRun=All}. */
  public static final WriteOptions DRY_RUN = new WriteOptions(true, false);
  /** A write from the test itself (seeding, {@code EventInjector}). */
  public static final WriteOptions SEEDING = new WriteOptions(false, true);
}
