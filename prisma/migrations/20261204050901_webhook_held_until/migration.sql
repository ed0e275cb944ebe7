-- AlterTable
ALTER TABLE "Webhook" ADD COLUMN     "heldUntil" TIMESTAMPTZ(3);
