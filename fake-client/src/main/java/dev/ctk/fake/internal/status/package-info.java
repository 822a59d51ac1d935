/**
 * kube's {@code Status} errors: {@link dev.ctk.fake.internal.status.ApiError} and its factories, worded as
 * kube-apiserver words them; and {@link dev.ctk.fake.internal.status.GoText}, the one place that prints values as
 * kube's Go code prints them ({@code %q}, {@code %v}, {@code encoding/json}), for those messages, field error causes
 * and {@code managedFields}.
 *
 * <p>Limits: only the reasons the fake produces today (NotFound, AlreadyExists, Conflict, Invalid, BadRequest,
 * MethodNotAllowed, Expired, UnsupportedMediaType, InternalError); no {@code retryAfterSeconds}. GoText prints JSON
 * values as kube decodes them, not Go structs (their printing stays with the check that prints them); its
 * {@code %q} writes {@code \a}, {@code \b}, {@code \f} and {@code \v} as {@code \x07} and so on and leaves
 * non-printable Unicode (such as U+00A0) unescaped, and its {@code encoding/json} writes {@code \b} and {@code \f} as
 * {@code \\u0008} and {@code \\u000c}, as Go did before 1.22.
 */
package dev.ctk.fake.internal.status;
