package dev.ctk.fake.internal.apply;

/**
 * Who makes a write, for {@code metadata.managedFields}: the field manager and the subresource its entry names.
 *
 * <pre>{@code
 * FieldOwner owner = FieldOwner.of(request.param("fieldManager"), request.header("user-agent"), "status");
 * }</pre>
 *
 * @param manager the field manager; {@code null} for writes no manager makes (seeding, event injection, the garbage
 *     collector): they own nothing, and the fields they change or remove leave their owners' sets
 * @param subresource {@code null}, {@code status} or {@code scale}
 */
public record FieldOwner(String manager, String subresource) {

  /** A write no field manager makes. */
  public static final FieldOwner NONE = new FieldOwner(null, null);

  /**
   * The manager kube records for an API request: the {@code fieldManager} parameter, else the User-Agent up to its
   * first {@code /} (kubectl's {@code kubectl/v1.32.0 (linux/amd64) ...} is {@code kubectl}), else
   * {@code unknown}.
   */
  public static FieldOwner of(String fieldManager, String userAgent, String subresource) {
    String manager = fieldManager;
    if (manager == null || manager.isEmpty()) {
      manager = userAgent == null ? "" : userAgent;
      int slash = manager.indexOf('/');
      if (slash >= 0) {
        manager = manager.substring(0, slash);
      }
    }
    return new FieldOwner(manager.isEmpty() ? "unknown" : manager, subresource);
  }
}
