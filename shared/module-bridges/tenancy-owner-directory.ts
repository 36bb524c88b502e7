/**
 * The delivery module's view of tenancy: who owns a phone number id or a WhatsApp business
 * account, from the identifier claims (one read each; an unclaimed id belongs to nobody here).
 */
import type { OwnerDirectory, PhoneNumberOwner } from '../delivery/ports';
import type { AccountDirectory } from '../tenancy/tenancy-stores';

export class TenancyOwnerDirectory implements OwnerDirectory {
  constructor(private readonly tenancy: Pick<AccountDirectory, 'findPhoneNumberById' | 'getIdentifierClaim'>) {}

  async ownerOfPhoneNumberId(phoneNumberId: string): Promise<PhoneNumberOwner | undefined> {
    const number = await this.tenancy.findPhoneNumberById(phoneNumberId);
    return number ? { organizationId: number.organizationId, wabaId: number.wabaId, phoneNumber: number.digits } : undefined;
  }

  async ownerOfWaba(wabaId: string): Promise<{ organizationId: string } | undefined> {
    const claim = await this.tenancy.getIdentifierClaim('waba-id', wabaId);
    return claim ? { organizationId: claim.organizationId } : undefined;
  }
}
