/**
 * kube's {@code Status} errors: {@link dev.ctk.fake.internal.status.ApiError} and its factories, worded as
 * kube-apiserver words them; and {@link dev.ctk.fake.internal.status.GoText}, the one place that prints values as
 * kube's Go code prints them ({@code %q}, {@code %v}, {@code %#v}, {@code %T}, {@code encoding/json}) for those
 * messages, field error causes and {@code managedFields}.
 *
 * <p>Limits: only the reasons the fake produces today (NotFound, AlreadyExists, Conflict, Invalid, BadRequest,
 * MethodNotAllowed, Expired, UnsupportedMediaType, InternalError); no {@code retryAfterSeconds}. GoText prints JSON
 * values as kube decodes them, not Go structs (their printing stays with the check that prints them). Where it is
 * known to part from Go: its {@code %q} writes {@code \a}, {@code \b}, {@code \f} and {@code \v} as {@code \x07} and
 * so on and leaves non-printable Unicode (such as U+00A0) unescaped; its {@code encoding/json} writes {@code \b} and
 * {@code \f} as {@code \\u0008} and {@code \\u000c}, as Go did before 1.22; the patch engines' {@code value} and
 * {@code typeName} keep an integer beyond {@code int64} whole where kube holds a float64; {@code crdJsonText} (enum
 * values in schema errors) writes numbers in {@code %v} form and leaves {@code <}, {@code >}, {@code &} unescaped.
 */
package dev.ctk.fake.internal.status;
